// The website's few behaviours, as a static file (no inline script: the pages' CSP
// forbids it). Every page works without it; this only makes three things quicker.

// Copy a colour code with one click.
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.append(field);
  field.select();
  document.execCommand("copy");
  field.remove();
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  await copyText(button.dataset.copy);
  const label = button.textContent;
  button.textContent = button.dataset.copied;
  window.setTimeout(() => { button.textContent = label; }, 1500);
});

// A form marked data-once is sent once: a second click while the first is on its way
// does nothing (the server counts a repeated download once anyway).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches("form[data-once]")) return;
  if (form.dataset.sent) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "true";
  for (const button of form.querySelectorAll("button")) button.setAttribute("aria-disabled", "true");
});

// A download the server has just granted starts by itself.
document.addEventListener("DOMContentLoaded", () => {
  const link = document.querySelector("a[data-start-download]");
  if (link) window.location.assign(link.href);
});
