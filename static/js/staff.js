/* damas-swiss staff pages: small helpers, no library, no inline script (CSP default-src 'self'). */
(function () {
  "use strict";
  function slugify(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80).replace(/-+$/, "");
  }
  // <input data-slug-from="id_name">: follows the name while the director has not typed an address of their own.
  document.querySelectorAll("input[data-slug-from]").forEach(function (slug) {
    var source = document.getElementById(slug.getAttribute("data-slug-from"));
    if (!source) return;
    var auto = slug.value === "" || slug.value === slugify(source.value);
    source.addEventListener("input", function () {
      if (auto) slug.value = slugify(source.value);
    });
    slug.addEventListener("input", function () {
      auto = slug.value === "";
    });
  });
  // <button data-confirm="question">: asks before submitting.
  document.querySelectorAll("[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (e) {
      if (!window.confirm(button.getAttribute("data-confirm"))) e.preventDefault();
    });
  });
  // <input type=checkbox data-check-all="selector">: marks or unmarks every enabled box the selector finds.
  document.querySelectorAll("input[data-check-all]").forEach(function (box) {
    box.addEventListener("change", function () {
      document.querySelectorAll(box.getAttribute("data-check-all")).forEach(function (other) {
        if (!other.disabled) other.checked = box.checked;
      });
    });
  });
  // <select data-late-note="id">: shows the points of the rounds missed for the round chosen.
  document.querySelectorAll("select[data-late-note]").forEach(function (select) {
    var note = document.getElementById(select.getAttribute("data-late-note"));
    if (!note) return;
    select.addEventListener("change", function () {
      note.textContent = select.options[select.selectedIndex].getAttribute("data-note") || "";
    });
  });
})();
