/* The self-test of the lmsexport preview: scores an answer with the credits of the content
   (read from each question's key-data block, never from the page's text) and shows the
   feedback a student would get. No library, no network. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var buttons = Array.prototype.slice.call(document.querySelectorAll(".modes button"));
  function setMode(mode) {
    document.body.classList.toggle("mode-student", mode === "student");
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-mode") === mode)); });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () { setMode(b.getAttribute("data-mode")); });
  });

  function clamp(x) { return Math.min(1, Math.max(0, x)); }
  function shown(x) { return String(Math.round(x * 1000) / 1000); }
  function same(a, b) { return a.length === b.length && a.every(function (x) { return b.indexOf(x) >= 0; }); }
  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }

  function parseNumber(text) {
    var s = text.trim();
    if (s.indexOf(".") < 0) { s = s.replace(",", "."); }
    if (s === "" || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) { return null; }
    return Number(s);
  }

  function accepts(answer, x) {
    if (answer.min !== undefined) { return x >= answer.min && x <= answer.max; }
    return Math.abs(x - answer.value) <= answer.tolerance;
  }

  /* -> {fraction, correct, options: chosen ids, answer: index of the answer whose feedback shows} */
  function score(key, form) {
    var result = {fraction: 0, correct: false, options: [], answer: null, rows: []};
    if (key.type === "single_choice" || key.type === "multiple_response" || key.type === "true_false") {
      var ids = all(form, "input:checked").map(function (i) { return i.value; });
      result.options = ids;
      var sum = ids.reduce(function (total, id) { return total + (key.credits[id] || 0); }, 0);
      result.fraction = clamp(sum);
      result.correct = ids.length > 0 && same(ids, key.correct);
    } else if (key.type === "short_answer") {
      var given = form.querySelector("input").value.trim().normalize("NFC");
      var fold = function (s) { return key.case_sensitive ? s : s.toLowerCase(); };
      var matches = function (a) { return given !== "" && fold(a.text.normalize("NFC")) === fold(given); };
      key.answers.some(function (a, i) {
        if (matches(a)) { result.answer = i; result.fraction = clamp(a.credit); return true; }
        return false;
      });
      result.correct = key.answers.some(function (a) { return a.credit >= 1 && matches(a); });
    } else if (key.type === "numerical") {
      var x = parseNumber(form.querySelector("input").value);
      if (x !== null) {
        var best = null;
        key.answers.forEach(function (a, i) {
          if (accepts(a, x) && (best === null || a.credit > key.answers[best].credit)) { best = i; }
        });
        if (best !== null) { result.answer = best; result.fraction = clamp(key.answers[best].credit); }
        result.correct = key.answers.some(function (a) { return a.credit >= 1 && accepts(a, x); });
      }
    } else if (key.type === "matching") {
      var rows = all(form, "tr[data-pair]");
      var right = 0;
      rows.forEach(function (row) {
        var ok = row.querySelector("select").value === key.pairs[row.getAttribute("data-pair")];
        if (ok) { right += 1; }
        result.rows.push([row, ok]);
      });
      result.fraction = rows.length ? right / rows.length : 0;
      result.correct = rows.length > 0 && right === rows.length;
    }
    return result;
  }

  function clear(form) {
    all(form, ".feedback").forEach(function (f) { f.hidden = true; });
    all(form, ".option").forEach(function (o) { o.classList.remove("chosen-right", "chosen-wrong"); });
    all(form, "tr[data-pair]").forEach(function (r) {
      r.classList.remove("right", "wrong");
      r.querySelector(".mark").textContent = "";
    });
    var out = form.querySelector(".result");
    out.textContent = "";
    out.className = "result";
    out.removeAttribute("data-score");
    out.removeAttribute("data-outcome");
  }

  function reveal(form, selector) { all(form, selector).forEach(function (f) { f.hidden = false; }); }

  function check(form, key) {
    clear(form);
    var out = form.querySelector(".result");
    if (key.type === "essay") {
      out.textContent = "Not scored automatically: a teacher grades this answer (" + shown(key.points) + " points).";
      out.classList.add("manual");
      reveal(form, ".feedback-general");
      return;
    }
    var r = score(key, form);
    var outcome = r.correct ? "correct" : (r.fraction > 0 ? "partially_correct" : "incorrect");
    var points = r.fraction * key.points;
    var label = {correct: "Correct", partially_correct: "Partially correct", incorrect: "Incorrect"}[outcome];
    out.textContent = label + ": " + shown(points) + " of " + shown(key.points) + " point" + (key.points === 1 ? "" : "s");
    out.classList.add(outcome);
    out.setAttribute("data-score", shown(points));
    out.setAttribute("data-outcome", outcome);
    r.options.forEach(function (id) {
      all(form, ".option").forEach(function (o) {
        if (o.getAttribute("data-option") !== id) { return; }
        o.classList.add((key.credits[id] || 0) > 0 ? "chosen-right" : "chosen-wrong");
        reveal(o, ".feedback-option");
      });
    });
    if (r.answer !== null) { reveal(form, '.feedback-answer[data-answer="' + r.answer + '"]'); }
    r.rows.forEach(function (pair) {
      pair[0].classList.add(pair[1] ? "right" : "wrong");
      pair[0].querySelector(".mark").textContent = pair[1] ? "✓" : "✗";
    });
    reveal(form, '.feedback-outcome[data-outcome="' + outcome + '"]');
    reveal(form, ".feedback-general");
  }

  all(document, "article.question").forEach(function (article) {
    var form = article.querySelector("form.answer");
    var data = article.querySelector("script.key-data");
    if (!form || !data) { return; }
    var key = JSON.parse(data.textContent);
    form.addEventListener("submit", function (event) { event.preventDefault(); check(form, key); });
    form.addEventListener("reset", function () { clear(form); });
  });
}());
