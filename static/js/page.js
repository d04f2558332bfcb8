// Every page: small behaviours that used to be inline script or handler attributes, which the
// Content-Security-Policy refuses (config/csp.py). Without JavaScript the page works as before.
(() => {
  "use strict";

  // A field meant to be copied (a new API token, a signing secret) selects itself when clicked.
  document.addEventListener("click", (event) => {
    const field = event.target.closest("[data-select-on-click]");
    if (field) {
      field.select();
    }
  });

  // A refused submit: the page comes back with the server's errors, perhaps far below the top.
  // The first one is brought into view and focused (its field, or the message itself), so a
  // refusal is never silent. Only errors the server rendered count: a form's own live hints
  // (the cost estimate's plan warning) are not a refusal.
  const firstError = document.querySelector(
    ".messages .error, form .errors, form .field.has-error",
  );
  if (firstError) {
    const control = firstError.classList.contains("field")
      ? firstError.querySelector("input:not([type=hidden]), select, textarea")
      : null;
    const target = control || firstError;
    if (!control) {
      target.setAttribute("tabindex", "-1"); // a message can take focus, not the tab order
    }
    target.focus({ preventScroll: true });
    firstError.scrollIntoView({ block: "center" });
  }

  // Sign-up: the browser's time zone, so times are shown in it from the first page on.
  const zone = document.querySelector("input[data-browser-timezone]");
  if (zone) {
    try {
      zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    } catch (error) {
      // An old browser: UTC stays, and preferences can change it.
    }
  }
})();
