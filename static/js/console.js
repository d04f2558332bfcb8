// Console pages: a form with data-confirm asks before it submits (deleting a subscription).
// Without JavaScript the form submits at once, as the server expects a plain POST anyway.
(() => {
  "use strict";

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
})();
