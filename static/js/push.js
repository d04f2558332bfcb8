/* Preferences → Push notifications: register the service worker, subscribe this browser with
   the server's VAPID public key, and hand the subscription to Tidings. Without JavaScript or
   without the Push API the button stays hidden and the page says so. */
"use strict";
(function () {
  const section = document.getElementById("push-settings");
  if (!section) return;
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  const say = (text) => { status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(section.dataset.unsupported);
    return;
  }
  button.hidden = false;

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say(section.dataset.denied);
        return;
      }
      const registration = await navigator.serviceWorker.register(section.dataset.worker, { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(section.dataset.key),
      });
      const body = subscription.toJSON();
      const answer = await fetch(section.dataset.register, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": section.dataset.csrf },
        body: JSON.stringify({ endpoint: body.endpoint, keys: body.keys, label: navigator.userAgent.slice(0, 100) }),
      });
      if (!answer.ok) {
        const refusal = await answer.json().catch(() => ({}));
        say((refusal.error && refusal.error.message) || section.dataset.failed);
        return;
      }
      window.location.reload();
    } catch (error) {
      say(section.dataset.failed + " " + error);
    } finally {
      button.disabled = false;
    }
  });
})();
