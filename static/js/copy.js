// A "Copy" button copies the text of the element its data-copy selector names.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    button.dataset.copied = "true";
    if (button.dataset.copiedText) button.textContent = button.dataset.copiedText;
  });
});
