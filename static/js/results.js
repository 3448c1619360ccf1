/* Results page: send only the boards whose boxes differ from what the page showed, packed in one field.

Django refuses a post of more than 1,000 fields (about 333 micro-match boards), and a box the arbiter did not
touch must not overwrite what another arbiter saves meanwhile. On submit, each board with a box whose text
differs from the value it showed (data-shown) goes into one JSON field ("packed": field name -> text) with its
hidden version field and what each of its boxes showed (b<id>_s<game>), so the server can tell a box left as it
was from one typed over a value another arbiter saved meanwhile; every box and version field is then left out of the post. Without this script the form
posts every box, and the server treats the boxes as they were shown as "no change" all the same. */
(function () {
  "use strict";
  var form = document.getElementById("results-form");
  var PACKED = "packed";
  if (!form || !window.JSON) return;
  form.addEventListener("submit", function () {
    var packed = {};
    form.querySelectorAll("tr[data-board]").forEach(function (row) {
      var version = row.querySelector("input[type=hidden][name$='_v']");
      var boxes = row.querySelectorAll("input.result-input");
      var changed = [];
      boxes.forEach(function (box) {
        if (box.value.trim() !== (box.getAttribute("data-shown") || "")) changed.push(box);
      });
      if (version && changed.length) {
        packed[version.name] = version.value;
        changed.forEach(function (box) {
          packed[box.name] = box.value;
        });
        boxes.forEach(function (box) {  // what each box showed: b<id>_g<n> -> b<id>_s<n>
          packed[box.name.replace(/_g(\d+)$/, "_s$1")] = box.getAttribute("data-shown") || "";
        });
      }
      if (version) version.disabled = true;
      boxes.forEach(function (box) {
        box.disabled = true;
      });
    });
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = PACKED;
    field.value = JSON.stringify(packed);
    form.appendChild(field);
  });
  // A phone's keypad for the boxes (inputmode="tel") types digits and "+" on every phone, but an iPhone's has no
  // "-", "/" or "x" (issue 37.11): while a box has the focus, a bar of buttons offers every result as the page
  // writes it (the datalist: 2-0 1-1 0-2 +/- -/+ -/-, or 1-0 ½-½ 0-1 ...); a tap writes it into the box and goes to
  // the next box. The bar keeps the focus in the box (no keypad closing and opening at each tap).
  var codes = document.getElementById("result-codes");
  if (codes && form.querySelector("input.result-input")) {
    var bar = document.createElement("div");
    bar.className = "result-keys no-print";
    bar.id = "result-keys";
    bar.hidden = true;
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Resultado da partida");
    codes.querySelectorAll("option").forEach(function (option) {
      var key = document.createElement("button");
      key.type = "button";
      key.className = "secondary";
      key.textContent = option.value;
      key.setAttribute("data-code", option.value);
      bar.appendChild(key);
    });
    form.appendChild(bar);
    var current = null;
    var hiding = null;
    form.addEventListener("focusin", function (event) {
      if (!event.target.classList || !event.target.classList.contains("result-input")) return;
      current = event.target;
      clearTimeout(hiding);
      bar.hidden = false;
    });
    form.addEventListener("focusout", function () {
      clearTimeout(hiding);
      hiding = setTimeout(function () { bar.hidden = true; }, 300);
    });
    bar.addEventListener("pointerdown", function (event) { event.preventDefault(); });
    bar.addEventListener("mousedown", function (event) { event.preventDefault(); });
    bar.addEventListener("click", function (event) {
      var key = event.target.closest("button[data-code]");
      if (!key || !current) return;
      current.value = key.getAttribute("data-code");
      current.dispatchEvent(new Event("input", { bubbles: true }));
      var boxes = Array.prototype.slice.call(form.querySelectorAll("input.result-input"));
      var next = boxes[boxes.indexOf(current) + 1] || current;
      next.focus();
    });
  }
  // Back to the page from the browser's history: the boxes are enabled again (the post disabled them).
  window.addEventListener("pageshow", function () {
    form.querySelectorAll("input:disabled").forEach(function (input) {
      input.disabled = false;
    });
    form.querySelectorAll("input[name='" + PACKED + "']").forEach(function (input) {
      input.remove();
    });
  });
})();
