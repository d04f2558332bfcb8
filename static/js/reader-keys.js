// The in-app reader's keys: v opens the item at its source (a new tab), u goes back to the
// Inbox. Typing in a field is left alone.
(() => {
  const reader = document.querySelector("[data-reader]");
  if (!reader) {
    return;
  }
  const typing = (target) =>
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing || typing(event.target)) {
      return;
    }
    if (event.key === "v") {
      const link = reader.querySelector("a[data-open]");
      if (link) {
        event.preventDefault();
        window.open(link.href, "_blank", "noopener,noreferrer");
      }
    } else if (event.key === "u") {
      const back = reader.querySelector("a[data-back]");
      if (back) {
        event.preventDefault();
        window.location.assign(back.href);
      }
    }
  });
})();
