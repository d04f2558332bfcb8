// Live schedule preview for the subscription form: the schedule in plain words and its next
// runs, from GET /api/v1/schedule/preview, and (on the new-subscription page) the expected
// cost from GET /api/v1/billing/estimate. Without JavaScript the preview box stays hidden, the
// cost shown is the server's for the form's values, and the form works as before. The
// preset-to-cron rule mirrors digests/forms.py `preset_cron`.
// A refused expression is said once, in the field's own error line (where the server puts it
// after a submit), never a second time in the preview box.
(() => {
  "use strict";

  const box = document.querySelector("[data-schedule-preview]");
  if (!box || !window.fetch || !box.closest("form")) {
    return;
  }
  const form = box.closest("form");
  const input = (name) => form.querySelector(`[name="${name}"]`);
  const preset = input("schedule_preset");
  const time = input("schedule_time");
  const day = input("schedule_day");
  const cron = input("cron");
  const zone = input("timezone");
  const words = box.querySelector("[data-schedule-words]");
  const runs = box.querySelector("[data-schedule-runs]");
  const heading = box.querySelector("[data-schedule-heading]");
  const DEBOUNCE_MS = 400;
  let timer = null;
  let inFlight = null;

  const mode = () => (preset && preset.value) || "advanced";

  const showField = (element, visible) => {
    const field = element && element.closest(".field");
    if (field) {
      // A field the server refused stays in sight whatever the preset: its error is the news.
      field.hidden = !visible && !field.classList.contains("has-error");
    }
  };

  const syncFields = () => {
    showField(time, mode() !== "advanced");
    showField(day, mode() === "weekly");
    showField(cron, mode() === "advanced");
  };

  const currentCron = () => {
    if (mode() === "advanced") {
      return cron ? cron.value.trim() : "";
    }
    const [hour, minute] = ((time && time.value) || "").split(":").map((n) => parseInt(n, 10));
    if (Number.isNaN(hour) || Number.isNaN(minute) || minute === undefined) {
      return "";
    }
    const days = { daily: "*", weekdays: "1-5", weekly: (day && day.value) || "1" }[mode()];
    return days ? `${minute} ${hour} * * ${days}` : "";
  };

  const clear = () => {
    words.textContent = "";
    runs.replaceChildren();
    heading.hidden = true;
  };

  const clearFieldErrors = () => {
    for (const element of [cron, zone]) {
      const field = element && element.closest(".field");
      if (field) {
        field.querySelectorAll("p.error").forEach((line) => line.remove());
        field.classList.remove("has-error");
      }
    }
  };

  const showFieldError = (element, message) => {
    const field = element && element.closest(".field");
    if (!field || !message) {
      return;
    }
    const line = document.createElement("p");
    line.className = "error";
    line.setAttribute("role", "alert");
    line.textContent = message;
    field.append(line);
    field.classList.add("has-error");
  };

  // The runs as the server words them (config/moments.py, the product's one time format: the
  // reader's language, local time with its zone), never the browser's own format.
  const render = (body) => {
    clear();
    clearFieldErrors();
    words.textContent = body.description;
    heading.hidden = false;
    runs.replaceChildren(
      ...body.next_runs.map((iso, index) => {
        const item = document.createElement("li");
        const when = document.createElement("time");
        when.dateTime = iso;
        when.textContent = body.next_runs_display[index];
        item.append(when);
        return item;
      }),
    );
    box.hidden = false;
  };

  const renderError = (body) => {
    clear();
    clearFieldErrors();
    const problem = (body && body.error) || {};
    const fields = problem.fields || {};
    if (fields.timezone) {
      showFieldError(zone, fields.timezone);
    } else {
      showFieldError(cron, fields.cron || problem.message);
    }
    box.hidden = true;
  };

  const refresh = async () => {
    const expression = currentCron();
    const timeZone = (zone && zone.value.trim()) || "UTC";
    if (!expression) {
      clear();
      box.hidden = true;
      return;
    }
    if (inFlight) {
      inFlight.abort();
    }
    inFlight = new AbortController();
    const query = new URLSearchParams({ cron: expression, timezone: timeZone, count: "5" });
    try {
      const response = await fetch(`${box.dataset.endpoint}?${query}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: inFlight.signal,
      });
      if (response.status === 429) {
        return; // throttled: keep what is shown
      }
      const body = await response.json();
      if (response.ok) {
        render(body);
      } else {
        renderError(body);
      }
    } catch (exc) {
      if (exc.name !== "AbortError") {
        box.hidden = true; // offline or a server error: the form still works without it
      }
    }
  };

  const cost = form.querySelector("[data-cost-estimate]");
  let costInFlight = null;

  const refreshCost = async () => {
    const expression = currentCron();
    if (!cost || !expression) {
      return;
    }
    if (costInFlight) {
      costInFlight.abort();
    }
    costInFlight = new AbortController();
    const sources = [...form.querySelectorAll('[name="source_ids"]:checked')].map((s) => s.value);
    const query = new URLSearchParams({
      cron: expression,
      timezone: (zone && zone.value.trim()) || "UTC",
      source_ids: sources.join(","),
    });
    try {
      const response = await fetch(`${cost.dataset.endpoint}?${query}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: costInFlight.signal,
      });
      if (!response.ok) {
        return; // an invalid schedule: the schedule preview says why
      }
      const body = await response.json();
      const template = cost.querySelector("[data-estimate-template]").content.textContent.trim();
      cost.querySelector("[data-estimate-text]").textContent = template
        .replace("{per_run}", body.per_run_max)
        .replace("{runs}", body.runs_per_month)
        .replace("{per_month}", body.per_month_max);
      const refusal = cost.querySelector("[data-estimate-refusal]");
      refusal.textContent = body.plan_refusal;
      refusal.hidden = body.fits_plan;
    } catch {
      // offline or aborted: keep what is shown
    }
  };

  const schedule = () => {
    syncFields();
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      refresh();
      refreshCost();
    }, DEBOUNCE_MS);
  };

  for (const element of [preset, time, day, cron, zone]) {
    if (element) {
      element.addEventListener("input", schedule);
      element.addEventListener("change", schedule);
    }
  }
  for (const source of form.querySelectorAll('[name="source_ids"]')) {
    source.addEventListener("change", schedule);
  }
  syncFields();
  // After a refused submit the server's error on the schedule is what the reader must see (a
  // plan's limit, which the preview endpoint does not know): no preview replaces it until the
  // reader changes the schedule.
  const refused = [cron, zone, time, day].some((element) =>
    element?.closest(".field")?.classList.contains("has-error"),
  );
  if (!refused) {
    refresh();
  }
})();
