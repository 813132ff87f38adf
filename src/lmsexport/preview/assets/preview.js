/* The self-test of the lmsexport preview: scores an answer with the credits of the content
   (read from each question's key-data block, never from the page's text) and shows the
   feedback a student would get. No library, no network. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* Served by `lmsexport preview --watch` (over http from this machine), a page reloads itself
     when a new build is written. Opened as a file, or published without the fingerprint, it
     asks once or not at all. */
  if (/^https?:$/.test(location.protocol)) {
    var seen = null;
    var poll = function () {
      fetch(".lmsexport-build", {cache: "no-store"})
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (stamp) {
          if (stamp === null) { return; }
          if (seen !== null && stamp !== seen) { location.reload(); return; }
          seen = stamp;
          setTimeout(poll, 1000);
        }, function () { /* the watcher stopped: nothing to follow */ });
    };
    poll();
  }

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

  /* Moodle's ordering grades (qtype_ordering question.php grade_response), with its quirks:
     0 stands for "no neighbour", and a longest run of one item counts nothing. */
  function nextIds(ids, lastItem) {
    var result = {}, n = ids.length - 1, following;
    if (lastItem) { following = 0; } else { following = ids[n]; n -= 1; }
    for (var i = n; i >= 0; i -= 1) { result[ids[i]] = following; following = ids[i]; }
    return result;
  }
  function previousAndNext(ids, every) {
    var result = {}, before = [], after = ids.slice();
    while (after.length) {
      var item = after.shift();
      result[item] = every ? [before.slice(), after.slice()]
                           : [[before.length ? before[0] : 0], [after.length ? after[0] : 0]];
      before.unshift(item);
    }
    return result;
  }
  function longestRun(correct, current, contiguous) {
    var positions = current.map(function (item) { return correct.indexOf(item); });
    var subsets = [];
    positions.forEach(function (value, p) {
      var isNew = true, fresh = [];
      subsets.forEach(function (subset) {
        var end = positions[subset[subset.length - 1]];
        if (value === end + 1) { isNew = false; subset.push(p); }
        else if (!contiguous && value > end) { isNew = false; fresh.push(subset.slice()); subset.push(p); }
      });
      if (isNew) { fresh.push([p]); }
      subsets.push.apply(subsets, fresh);
    });
    var best = 0;
    subsets.forEach(function (subset) { if (subset.length > Math.max(best, 1)) { best = subset.length; } });
    return best;
  }
  function orderFraction(grading, correct, current) {
    var right = 0, total = 0;
    var has = function (list, x) { return list.indexOf(x) >= 0; };
    if (grading === "all_or_nothing" || grading === "absolute_position") {
      correct.forEach(function (item, position) { if (current[position] === item) { right += 1; } total += 1; });
      if (grading === "all_or_nothing" && right < total) { right = 0; }
    } else if (grading === "relative_next_exclude_last" || grading === "relative_next_include_last") {
      var last = grading === "relative_next_include_last";
      var now = nextIds(current, last), wanted = nextIds(correct, last);
      Object.keys(wanted).forEach(function (item) {
        if (Object.prototype.hasOwnProperty.call(now, item) && now[item] === wanted[item]) { right += 1; }
        total += 1;
      });
    } else if (grading === "relative_one_previous_and_next" || grading === "relative_all_previous_and_next") {
      var every = grading === "relative_all_previous_and_next";
      var mine = previousAndNext(current, every), theirs = previousAndNext(correct, every);
      Object.keys(theirs).forEach(function (item) {
        var before = theirs[item][0], after = theirs[item][1];
        if (Object.prototype.hasOwnProperty.call(mine, item)) {
          right += mine[item][0].filter(function (x) { return has(before, x); }).length;
          right += mine[item][1].filter(function (x) { return has(after, x); }).length;
        }
        total += before.length + after.length;
      });
    } else {
      right = longestRun(correct, current, grading === "longest_contiguous_subset");
      total = current.length;
    }
    return total === 0 ? 0 : right / total;
  }

  function bestMatch(answers, matches) {
    /* The answer with the highest credit among those that match (the first of equals). */
    var best = null;
    answers.forEach(function (a, i) { if (matches(a) && (best === null || a.credit > answers[best].credit)) { best = i; } });
    return best;
  }

  function scoreBlanks(key, form, result) {
    var total = 0, full = true;
    key.blanks.forEach(function (blank) {
      var field = form.querySelector('.blank[data-blank="' + blank.id + '"]');
      var given = field.value.trim().normalize("NFC"), chosen = null, credit = 0;
      if (blank.kind === "dropdown") {
        blank.options.forEach(function (o, i) { if (o.id === given) { chosen = i; } });
        if (chosen !== null) { credit = blank.options[chosen].credit; }
      } else if (blank.kind === "numerical") {
        var x = parseNumber(given);
        if (x !== null) { chosen = bestMatch(blank.answers, function (a) { return accepts(a, x); }); }
        if (chosen !== null) { credit = blank.answers[chosen].credit; }
      } else {
        var fold = function (s) { return blank.case_sensitive ? s : s.toLowerCase(); };
        chosen = bestMatch(blank.answers, function (a) { return given !== "" && fold(a.text.normalize("NFC")) === fold(given); });
        if (chosen !== null) { credit = blank.answers[chosen].credit; }
      }
      credit = clamp(credit);
      total += credit * blank.points;
      if (credit < 1) { full = false; }
      if (chosen !== null) { result.blankAnswers.push([blank.id, chosen]); }
      var state = credit >= 1 ? "right" : (credit > 0 ? "partial" : "wrong");
      result.marks.push([field.nextElementSibling, {right: "✓", partial: "½", wrong: "✗"}[state], state]);
    });
    result.fraction = key.points ? clamp(total / key.points) : 0;
    result.correct = full && key.blanks.length > 0;
  }

  /* -> {fraction, correct, options: chosen ids, answer: index of the answer whose feedback shows} */
  function score(key, form) {
    var result = {fraction: 0, correct: false, options: [], answer: null, rows: [], marks: [], blankAnswers: []};
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
    } else if (key.type === "ordering") {
      var current = all(form, ".order-item").map(function (li) { return li.getAttribute("data-item"); });
      result.fraction = orderFraction(key.grading, key.items, current);
      result.correct = same(current, key.items) && current.every(function (item, i) { return key.items[i] === item; });
    } else if (key.type === "fill_in_blanks") {
      scoreBlanks(key, form, result);
    }
    return result;
  }

  function clear(form) {
    all(form, ".feedback").forEach(function (f) { f.hidden = true; });
    all(form, ".option").forEach(function (o) { o.classList.remove("chosen-right", "chosen-wrong"); });
    all(form, "tr[data-pair]").forEach(function (r) { r.classList.remove("right", "wrong"); });
    all(form, ".mark").forEach(function (m) { m.textContent = ""; m.classList.remove("right", "partial", "wrong"); });
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
      out.textContent = "Not scored automatically: a teacher grades this answer (" + shown(key.points) + " point" + (key.points === 1 ? "" : "s") + ").";
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
    r.marks.forEach(function (mark) { mark[0].textContent = mark[1]; mark[0].classList.add(mark[2]); });
    r.blankAnswers.forEach(function (pair) {
      reveal(form, '.feedback-answer[data-blank="' + pair[0] + '"][data-answer="' + pair[1] + '"]');
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
    var list = form.querySelector("ol.ordering");
    var first = list ? all(list, ".order-item") : [];
    form.addEventListener("reset", function () {
      clear(form);
      first.forEach(function (li) { list.appendChild(li); });  /* the order the page started with */
    });
    if (list) {
      list.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button) { return; }
        var item = button.closest(".order-item");
        var other = button.classList.contains("up") ? item.previousElementSibling : item.nextElementSibling;
        if (!other) { return; }
        if (button.classList.contains("up")) { list.insertBefore(item, other); } else { list.insertBefore(other, item); }
        button.focus();  /* keep the keyboard on the item that moved */
      });
    }
  });
}());
