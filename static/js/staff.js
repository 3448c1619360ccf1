/* damas-swiss staff pages: small helpers, no library, no inline script (CSP default-src 'self'). */
(function () {
  "use strict";
  // Latin letters for the Greek and Cyrillic ones (and the Latin ones without a decomposition: ß, æ, ø, ł...),
  // lowercase, as the server writes them (anyascii): tests/tournaments/test_slug_table.py checks it and prints it
  // again (.venv/bin/python -m tests.tournaments.test_slug_table); the browser test types names.
  var LATIN = {"\u00df":"ss","\u00e6":"ae","\u00f0":"d","\u00f8":"o","\u00fe":"th","\u0111":"d","\u0127":"h","\u0131":"i","\u0138":"q","\u0140":"l","\u0142":"l","\u0149":"'n","\u014b":"ng","\u0153":"oe","\u0167":"t","\u0371":"h","\u0373":"s","\u0374":"'","\u0377":"w","\u037a":"i","\u037b":"s","\u037c":"s.","\u037d":"s.","\u0390":"i","\u03ac":"a","\u03ad":"e","\u03ae":"i","\u03af":"i","\u03b0":"y","\u03b1":"a","\u03b2":"v","\u03b3":"g","\u03b4":"d","\u03b5":"e","\u03b6":"z","\u03b7":"i","\u03b8":"th","\u03b9":"i","\u03ba":"k","\u03bb":"l","\u03bc":"m","\u03bd":"n","\u03be":"x","\u03bf":"o","\u03c0":"p","\u03c1":"r","\u03c2":"s","\u03c3":"s","\u03c4":"t","\u03c5":"y","\u03c6":"f","\u03c7":"ch","\u03c8":"ps","\u03c9":"o","\u03ca":"i","\u03cb":"y","\u03cc":"o","\u03cd":"y","\u03ce":"o","\u03d0":"b","\u03d1":"th","\u03d2":"y","\u03d3":"y","\u03d4":"y","\u03d5":"ph","\u03d6":"p","\u03d7":"&","\u03d9":"q","\u03db":"st","\u03dd":"w","\u03df":"q","\u03e1":"s","\u03e3":"sh","\u03e5":"f","\u03e7":"x","\u03e9":"h","\u03eb":"j","\u03ed":"c","\u03ef":"ti","\u03f0":"k","\u03f1":"r","\u03f2":"s","\u03f3":"j","\u03f5":"e","\u03f8":"sh","\u03fb":"s","\u03fc":"r.","\u0430":"a","\u0431":"b","\u0432":"v","\u0433":"g","\u0434":"d","\u0435":"e","\u0436":"zh","\u0437":"z","\u0438":"i","\u0439":"y","\u043a":"k","\u043b":"l","\u043c":"m","\u043d":"n","\u043e":"o","\u043f":"p","\u0440":"r","\u0441":"s","\u0442":"t","\u0443":"u","\u0444":"f","\u0445":"kh","\u0446":"ts","\u0447":"ch","\u0448":"sh","\u0449":"shch","\u044a":"'","\u044b":"y","\u044c":"'","\u044d":"e","\u044e":"yu","\u044f":"ya","\u0450":"e","\u0451":"e","\u0452":"dj","\u0453":"g","\u0454":"ie","\u0455":"dz","\u0456":"i","\u0457":"i","\u0458":"j","\u0459":"lj","\u045a":"nj","\u045b":"c","\u045c":"k","\u045d":"i","\u045e":"u","\u045f":"dzh","\u0461":"o","\u0463":"e","\u0465":"ie","\u0467":"e","\u0469":"ie","\u046b":"o","\u046d":"io","\u046f":"ks","\u0471":"ps","\u0473":"f","\u0475":"y","\u0477":"y","\u0479":"u","\u047b":"o","\u047d":"o","\u047f":"ot","\u0481":"q","\u048b":"jh","\u048d":"'","\u048f":"rh","\u0491":"g","\u0493":"gh","\u0495":"gh","\u0497":"j","\u0499":"z","\u049b":"q","\u049d":"g","\u049f":"q","\u04a1":"q","\u04a3":"ng","\u04a5":"ng","\u04a7":"ph","\u04a9":"w","\u04ab":"s","\u04ad":"th","\u04af":"u","\u04b1":"u","\u04b3":"h","\u04b5":"ts","\u04b7":"j","\u04b9":"c","\u04bb":"h","\u04bd":"ch","\u04bf":"ch","\u04c2":"gi","\u04c4":"q","\u04c6":"lh","\u04c8":"ng","\u04ca":"nh","\u04cc":"dzh","\u04ce":"mh","\u04cf":"h","\u04d1":"a","\u04d3":"a","\u04d5":"ae","\u04d7":"e","\u04d9":"a","\u04db":"e","\u04dd":"dzh","\u04df":"j","\u04e1":"dz","\u04e3":"i","\u04e5":"i","\u04e7":"o","\u04e9":"o","\u04eb":"y","\u04ed":"a","\u04ef":"u","\u04f1":"u","\u04f3":"u","\u04f5":"tsh","\u04f7":"gh","\u04f9":"y","\u04fb":"xh","\u04fd":"x","\u04ff":"h"};
  var DASHES = /[\u2010-\u2015\u2212]/g;
  // The web address the server makes of a name (tournaments/core/slugs.readable_slug: anyascii, Django's slugify,
  // at most 70 characters), or null when the name has letters this table has not (Chinese, Arabic...): the
  // server then fills the address from the name when the form is saved.
  function slugify(text) {
    var lower = (text || "").toLowerCase();
    var out = "";
    for (var i = 0; i < lower.length; i++) {
      out += Object.prototype.hasOwnProperty.call(LATIN, lower[i]) ? LATIN[lower[i]] : lower[i];
    }
    out = out.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(DASHES, "-").replace(/\s/g, " ");
    if (/[^\x00-\x7f]/.test(out.replace(/[^\p{L}\p{N}]/gu, ""))) return null;
    out = out.replace(/[^\x00-\x7f]/g, "").replace(/[^\w\s-]/g, "").replace(/[-\s]+/g, "-");
    return out.replace(/^[-_]+|[-_]+$/g, "").slice(0, 70).replace(/^-+|-+$/g, "");
  }
  // The default address is short (issue 28.16, 37.9): the name's words without the small ones (de, da, do, e...)
  // and the ones every event's name has (circuito, nacional, damas...: unless nothing else is left), up to 24
  // characters cut between words, keeping a year at the end ("Circuito Nacional de Damas - Etapa Recife 2026"
  // gives "etapa-recife-2026"); tournaments/core/slugs.short_slug is the same.
  var SMALL_WORDS = ["a", "o", "as", "os", "e", "de", "da", "do", "das", "dos", "em", "na", "no", "nas", "nos"];
  var COMMON_WORDS = ["circuito", "nacional", "damas", "campeonato", "torneio", "cbjd"];
  var SHORT = 24;
  function shortSlug(text) {
    var slug = slugify(text);
    if (slug === null) return null;
    var words = slug.split("-").filter(function (w) { return w && SMALL_WORDS.indexOf(w) < 0; });
    var proper = words.filter(function (w) { return COMMON_WORDS.indexOf(w) < 0; });
    if (proper.some(function (w) { return !/^(19|20)\d\d$/.test(w); })) words = proper;
    var year = words.length > 1 && /^(19|20)\d\d$/.test(words[words.length - 1]) ? words.pop() : "";
    var room = SHORT - (year ? year.length + 1 : 0), out = [];
    for (var i = 0; i < words.length; i++) {
      if (out.length && (out.join("-") + "-" + words[i]).length > room) break;
      out.push(words[i]);
    }
    if (year) out.push(year);
    return out.join("-").slice(0, 80).replace(/-+$/, "");
  }
  // <input data-slug-from="id_name">: follows the name while the director has not typed an address of their own
  // (left empty for a name in a script the table above has not: the server fills it).
  document.querySelectorAll("input[data-slug-from]").forEach(function (slug) {
    var source = document.getElementById(slug.getAttribute("data-slug-from"));
    if (!source) return;
    var auto = slug.value === "" || slug.value === shortSlug(source.value);
    source.addEventListener("input", function () {
      if (auto) slug.value = shortSlug(source.value) || "";
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
  // <ol data-tiebreak-editor>: the custom tiebreak list, one select per tiebreak in order (issue 28.15). Without
  // script the page shows the chosen ones and three empty selects; here each gets buttons to move it up or down
  // and to remove it, and the empty ones wait behind one "add" button. The form posts the selects in page order.
  document.querySelectorAll("ol[data-tiebreak-editor]").forEach(function (list) {
    if (list.querySelector("select[disabled]")) return;
    var add;
    function rows() { return Array.prototype.slice.call(list.querySelectorAll("li.tiebreak-row")); }
    function makeButton(text, label, cls, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "secondary tb-button " + cls;
      b.textContent = text;
      b.title = label;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", action);
      return b;
    }
    function refresh() {
      var shown = rows().filter(function (li) {
        return li.querySelector("select").value !== "" || li.getAttribute("data-open") === "1";
      });
      rows().forEach(function (li) { li.hidden = shown.indexOf(li) < 0; });
      shown.forEach(function (li, i) {
        li.querySelector(".tb-up").disabled = i === 0;
        li.querySelector(".tb-down").disabled = i === shown.length - 1;
      });
    }
    function wire(li) {
      var select = li.querySelector("select");
      var group = document.createElement("span");  // the three buttons wrap together, under a long name
      group.className = "tb-buttons";
      li.appendChild(group);
      group.appendChild(makeButton("↑", list.getAttribute("data-up"), "tb-up", function () {
        var prev = li.previousElementSibling;
        if (prev) list.insertBefore(li, prev);
        refresh();
      }));
      group.appendChild(makeButton("↓", list.getAttribute("data-down"), "tb-down", function () {
        var next = li.nextElementSibling;
        if (next && !next.hidden) list.insertBefore(next, li);
        refresh();
      }));
      group.appendChild(makeButton("✕", list.getAttribute("data-remove"), "tb-remove", function () {
        select.value = "";
        li.removeAttribute("data-open");
        list.appendChild(li);
        refresh();
        add.focus();
      }));
      select.addEventListener("change", refresh);
    }
    rows().forEach(wire);
    add = makeButton("+ " + list.getAttribute("data-add"), list.getAttribute("data-add"), "tb-add", function () {
      var next = rows().filter(function (li) { return li.hidden; })[0];
      if (!next) {  // every select in use: one more, like the last
        next = rows()[rows().length - 1].cloneNode(true);
        next.querySelectorAll(".tb-buttons").forEach(function (g) { g.remove(); });
        var select = next.querySelector("select");
        select.id = list.id + "_" + rows().length;
        select.value = "";
        list.appendChild(next);
        wire(next);
      }
      var last = rows().filter(function (li) { return !li.hidden; }).pop();
      if (last && last.nextElementSibling !== next) list.insertBefore(next, last.nextElementSibling);
      next.setAttribute("data-open", "1");
      refresh();
      next.querySelector("select").focus();
    });
    list.parentNode.insertBefore(add, list.nextSibling);
    refresh();
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
