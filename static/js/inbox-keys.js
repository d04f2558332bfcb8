// Keyboard shortcuts for the Inbox and a run's page: j/k move, o opens, s saves, m marks read
// or unread, x is "not interested" (or undo), ? shows the help. A shortcut presses the item's
// own button, so it does exactly what a click does: an htmx request when htmx is loaded, a
// plain form post otherwise. Without JavaScript the buttons work as ordinary forms.
(() => {
  "use strict";

  const list = document.querySelector("[data-item-list]");
  const help = document.getElementById("shortcuts");
  const opener = document.querySelector("[data-shortcuts-open]");
  let currentId = null;

  const items = () => (list ? Array.from(list.querySelectorAll("[data-item]")) : []);
  const current = () => (currentId && document.getElementById(currentId)) || null;

  const select = (item, { focus = true } = {}) => {
    for (const element of document.querySelectorAll("[data-item].is-current")) {
      element.classList.remove("is-current");
    }
    if (!item) {
      return;
    }
    currentId = item.id;
    item.classList.add("is-current");
    if (focus) {
      item.focus({ preventScroll: true });
      item.scrollIntoView({ block: "nearest" });
    }
  };

  const move = (step) => {
    const all = items();
    if (!all.length) {
      return;
    }
    const index = all.indexOf(current());
    const next = index === -1 ? (step > 0 ? 0 : all.length - 1) : index + step;
    select(all[Math.min(all.length - 1, Math.max(0, next))]);
  };

  const button = (item, action) => item && item.querySelector(`button[data-action="${action}"]`);

  // htmx wires up a swapped-in item only once it settles; a key pressed right after a swap
  // must not fall back to a full-page post, so the item is wired up first (idempotent).
  const click = (target) => {
    if (window.htmx) {
      window.htmx.process(target.closest("[data-item]") || target);
    }
    target.click();
  };

  const press = (action) => {
    const target = button(current(), action);
    if (target) {
      click(target);
    }
  };

  // Opening an item marks it read, but only in place (htmx): never navigate this page away.
  const markRead = (item) => {
    const read = button(item, "read");
    if (read && read.dataset.on === "0" && window.htmx) {
      click(read);
    }
  };

  // o: read the item here, in the in-app reader (which marks it read); v: at its source.
  const readHere = () => {
    const item = current();
    const link = item && item.querySelector("a[data-read]");
    if (link) {
      window.location.assign(link.href);
    }
  };

  const open = () => {
    const item = current();
    const link = item && item.querySelector("a[data-open]");
    if (link) {
      window.open(link.href, "_blank", "noopener,noreferrer");
      markRead(item);
    }
  };

  const toggleHelp = () => {
    if (!help || typeof help.showModal !== "function") {
      return;
    }
    if (help.open) {
      help.close();
    } else {
      help.showModal();
    }
  };

  const typing = (target) =>
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

  const keys = { j: () => move(1), k: () => move(-1), o: readHere, v: open, s: () => press("save"),
    m: () => press("read"), x: () => press("dismiss") };

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing || typing(event.target)) {
      return;
    }
    if (event.key === "?") {
      event.preventDefault();
      toggleHelp();
      return;
    }
    if (help && help.open) {
      return;
    }
    const handler = keys[event.key];
    if (handler && list) {
      event.preventDefault();
      handler();
    }
  });

  if (opener && help && typeof help.showModal === "function") {
    opener.hidden = false;
    opener.addEventListener("click", toggleHelp);
  }

  if (list) {
    // A click or Tab into an item makes it the current one for the next shortcut.
    list.addEventListener("focusin", (event) => {
      const item = event.target.closest("[data-item]");
      if (item && item.id !== currentId) {
        select(item, { focus: false });
      }
    });
    list.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-open]");
      if (link) {
        markRead(link.closest("[data-item]"));
      }
    });
  }

  // htmx replaced the item: the new element takes over the "current" mark.
  document.addEventListener("htmx:afterSettle", () => {
    const item = current();
    if (item) {
      item.classList.add("is-current");
    }
  });
})();
