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
