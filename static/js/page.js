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
