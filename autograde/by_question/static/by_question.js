// Grading one question across the class: one answer per screen, keys for everything, groups decided at once.
// Student text arrives as data: answers as HTML the server cleaned with the course's allow-list (parsed inert in a
// <template>), everything else (ids, evidence, comments) set as text. Saves send what the grader saw; a 409 names
// the value someone else saved meanwhile and the grader chooses.
(function () {
  "use strict";
  var api = document.currentScript.dataset.api;
  var KINDS = {"placeholder": "empty or placeholder", "identical": "identical", "near-identical": "near-identical",
               "single": "single"};
  var MIN_START = 8;  // characters of a sentence's start that must be found before it is marked
  var data = null, position = 0, vetoMark = 0, groupMode = false, confirmAction = null, conflicts = [], saving = 0;
  var byTarget = {scores: {}, comments: {}, vetoes: {}};
  var $ = function (id) { return document.getElementById(id); };

  function text(element, value) { element.textContent = value; return element; }
  function make(tag, value, className) {
    var element = document.createElement(tag);
    if (value !== undefined) element.textContent = value;
    if (className) element.className = className;
    return element;
  }
  function cookie(name) {
    var found = document.cookie.match("\\b" + name + "=([^;]*)\\b");
    return found ? found[1] : "";
  }
  function points(value) { return value === null ? "–" : String(value); }

  // ---- what the page knows -----------------------------------------------------------------------------------
  function answer() { return data.answers[position]; }
  function group(answerShown) { return data.groups[(answerShown || answer()).group]; }
  function members(found) { return data.answers.slice(found.first, found.first + found.size); }
  function complete(found) {
    return members(found).every(function (item) {
      return item.score !== null && item.vetoes.every(function (v) { return v.decision !== "undecided"; });
    });
  }
  function index() {
    data.answers.forEach(function (item) {
      byTarget.scores[item.grade] = item;
      byTarget.comments[item.comment] = item;
      item.vetoes.forEach(function (veto) { byTarget.vetoes[item.student + "/" + veto.id] = veto; });
    });
  }
  function progress() {
    var scored = data.answers.filter(function (item) { return item.score !== null; }).length;
    var undecided = data.answers.reduce(function (sum, item) {
      return sum + item.vetoes.filter(function (v) { return v.decision === "undecided"; }).length;
    }, 0);
    text($("progress"), scored + "/" + data.answers.length + " scored, " + undecided + " vetoes undecided");
    text($("position"), "answer " + (position + 1) + "/" + data.answers.length + " · group " +
         (answer().group + 1) + "/" + data.groups.length);
    var where = $("position").dataset, found = group();  // for scripts that drive the page (tests, benches)
    where.answer = String(position);
    where.group = String(answer().group);
    where.groupFirst = String(found.first);
    where.groupSize = String(found.size);
    document.body.dataset.done = String(scored === data.answers.length && undecided === 0);
  }

  // ---- showing one answer ------------------------------------------------------------------------------------
  function squashed(node, into) {
    // the text of `node`'s text nodes with whitespace runs as one space, and where each character came from
    var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (var current = walker.nextNode(); current; current = walker.nextNode()) {
      for (var i = 0; i < current.data.length; i++) {
        var space = /\s/.test(current.data[i]);
        if (space && (into.text === "" || into.text[into.text.length - 1] === " ")) continue;
        into.text += space ? " " : current.data[i];
        into.places.push([current, i]);
      }
    }
    return into;
  }
  function wrap(found, at, length) {
    // put <mark> around `length` squashed characters from `at`, one text node at a time (no markup is built)
    var start = found.places[at], end = found.places[at + length - 1], nodes = [];
    for (var p = at; p < at + length; p++) {
      if (nodes.indexOf(found.places[p][0]) < 0) nodes.push(found.places[p][0]);
    }
    nodes.reverse().forEach(function (node) {
      var range = document.createRange();
      range.setStart(node, node === start[0] ? start[1] : 0);
      range.setEnd(node, node === end[0] ? end[1] + 1 : node.data.length);
      range.surroundContents(make("mark"));
    });
  }
  function highlight(root, sentences) {
    // mark the evidence in the answer: "whole" if a sentence is there as written, "start" if only its first
    // characters are (markup in the sentence that the cleaning removed), "" if neither
    var found = squashed(root, {text: "", places: []}), best = {at: -1, length: 0};
    for (var s = 0; s < sentences.length; s++) {
      var needle = sentences[s].replace(/\s+/g, " ").trim(), at = needle ? found.text.indexOf(needle) : -1;
      if (at >= 0) { wrap(found, at, needle.length); return "whole"; }
      var low = 0, high = needle.length;  // the longest start of the sentence that is in the answer
      while (low < high) {
        var middle = Math.ceil((low + high) / 2);
        if (found.text.indexOf(needle.slice(0, middle)) >= 0) low = middle; else high = middle - 1;
      }
      while (low > 0 && needle[low - 1] === " ") low -= 1;
      if (low > best.length) best = {at: found.text.indexOf(needle.slice(0, low)), length: low};
    }
    if (best.length < MIN_START) return "";
    wrap(found, best.at, best.length);
    return "start";
  }
  function showAnswer(item) {
    var holder = document.createElement("template");
    holder.innerHTML = item.html;  // cleaned by the server's allow-list; the page's policy forbids any script
    $("answer").replaceChildren(holder.content);
    if (!$("answer").textContent.trim()) $("answer").replaceChildren(make("p", "(nothing written)", "empty"));
    $("answer-pane").scrollTop = 0;
    item.vetoes.forEach(function (veto) {
      veto.found = highlight($("answer"), [veto.shown_evidence, veto.evidence]);
    });
    if (window.autogradeTypeset) window.autogradeTypeset($("answer"));
  }
  function showVetoes(item) {
    var list = $("vetoes");
    list.replaceChildren();
    if (item.vetoes.length === 0) list.appendChild(make("li", "none", "none"));
    item.vetoes.forEach(function (veto, number) {
      var entry = make("li", undefined, "veto " + veto.decision + (number === vetoMark ? " marked" : ""));
      entry.appendChild(make("code", veto.id));
      entry.appendChild(make("span", " " + veto.meaning));
      entry.appendChild(make("q", veto.evidence, "evidence"));
      if (veto.found !== "whole") {
        entry.appendChild(make("small", veto.found ? "(only its start is in the answer as shown: the rest was markup)"
                                                   : "(this sentence is not in the answer as shown)"));
      }
      if (veto.also_in.length) entry.appendChild(make("small", "also found in " + veto.also_in.join(", ")));
      var state = make("span", veto.decision + (veto.decided_in ? " (" + veto.decided_in + ")" : ""), "decision");
      entry.appendChild(state);
      if (veto.decided_in !== "overrides.yaml") {
        ["upheld", "dismissed"].forEach(function (decision) {
          var button = make("button", decision === "upheld" ? "uphold (u)" : "dismiss (d)");
          button.type = "button";
          button.setAttribute("aria-pressed", String(veto.decision === decision));
          button.addEventListener("click", function () { vetoMark = number; decide(decision, false); });
          entry.appendChild(button);
        });
      }
      list.appendChild(entry);
    });
  }
  function showScore(item) {
    Array.prototype.forEach.call($("scores").children, function (button) {
      button.setAttribute("aria-pressed", String(item.score !== null && Number(button.dataset.points) === item.score));
    });
    $("group-mode").setAttribute("aria-pressed", String(groupMode));
  }
  function show() {
    var item = answer(), found = group(item);
    text($("student"), item.student);
    text($("group"), KINDS[found.kind] + (found.size > 1 ? " ×" + found.size : "") +
         (found.vetoes.length ? " · " + found.vetoes.join(", ") : ""));
    var changed = $("differences");
    changed.replaceChildren.apply(changed, item.differences.map(function (line) { return make("li", line); }));
    changed.hidden = item.differences.length === 0;
    showAnswer(item);
    showVetoes(item);
    showScore(item);
    $("comment").value = item.comment_text;
    progress();
  }
  function refresh() {
    // after a save: decisions, scores and counts (not the answer itself, nor a comment being typed)
    showVetoes(answer());
    showScore(answer());
    progress();
  }
  function moveTo(target) {
    position = Math.max(0, Math.min(data.answers.length - 1, target));
    vetoMark = firstUndecided(answer());
    show();
  }

  // ---- saving ------------------------------------------------------------------------------------------------
  function status(message) { text($("status"), message); }
  function put(kind, changes) {
    saving += 1;
    document.body.dataset.saving = String(saving);
    status("saving…");
    return fetch(api + "/" + kind, {
      method: "PUT", credentials: "same-origin", body: JSON.stringify({changes: changes}),
      headers: {"Content-Type": "application/json", "X-XSRFToken": cookie("_xsrf")}
    }).then(function (response) {
      if (response.status !== 200 && response.status !== 409) throw new Error(response.status + " " + response.statusText);
      return response.json();
    }).then(function (outcome) {
      outcome.saved.forEach(function (done) { stored(kind, done.target, done.value); });
      outcome.conflicts.forEach(function (found) { conflicts.push({kind: kind, found: found}); });
      status(outcome.conflicts.length ? "someone else changed this first" : "saved");
      nextConflict();
    }).catch(function (error) {
      status("not saved: " + error.message + " (press the key again)");
    }).finally(function () {
      saving -= 1;
      document.body.dataset.saving = String(saving);
      refresh();
    });
  }
  function stored(kind, target, value) {
    var item = byTarget[kind][target];
    if (kind === "scores") item.score = value;
    else if (kind === "comments") item.comment_text = value || "";
    else { item.decision = value; item.decided_in = value === "undecided" ? "" : "the grading page"; }
  }
  function seen(kind, target) {
    var item = byTarget[kind][target];
    if (kind === "scores") return item.score;
    if (kind === "comments") return item.comment_text || null;
    return item.decision;
  }
  function nextConflict() {
    var box = $("conflict");
    box.hidden = conflicts.length === 0;
    if (!conflicts.length) return;
    var first = conflicts[0], what = {scores: "score", comments: "comment", vetoes: "decision"}[first.kind];
    var owner = first.kind === "vetoes" ? first.found.target : (byTarget[first.kind][first.found.target] || {}).student;
    text($("conflict-text"), owner + ": someone else saved the " + what + " " + JSON.stringify(first.found.current) +
         " after this page loaded; you gave " + JSON.stringify(first.found.yours) + ".");
  }
  function resolve(keepMine) {
    var first = conflicts.shift();
    if (!first) return;
    stored(first.kind, first.found.target, first.found.current);
    if (keepMine) put(first.kind, [{target: first.found.target, expected: first.found.current, value: first.found.yours}]);
    nextConflict();
    refresh();
  }

  // ---- decisions ---------------------------------------------------------------------------------------------
  function afterGroupDecision(found) {
    if (complete(found) && found.first + found.size < data.answers.length) moveTo(found.first + found.size);
  }
  function ask(question, details, action) {
    text($("confirm-text"), question);
    $("confirm-details").replaceChildren.apply($("confirm-details"), details.map(function (line) { return make("li", line); }));
    $("confirm").hidden = false;
    confirmAction = action;
  }
  function closeConfirm(run) {
    var action = confirmAction;
    confirmAction = null;
    $("confirm").hidden = true;
    if (run && action) action();
  }
  function differencesOf(found) {
    return members(found).filter(function (item) { return item.differences.length; }).map(function (item) {
      return item.student + ": " + item.differences.join(" ");
    });
  }
  function score(value, wholeGroup) {
    if (value > data.max_points) return;
    if (!wholeGroup) {
      put("scores", [{target: answer().grade, expected: answer().score, value: value}]);
      return;
    }
    var found = group(), items = members(found);
    var changing = items.filter(function (item) { return item.score !== null && item.score !== value; }).length;
    ask("Give " + value + " to all " + items.length + " answers of this group (" + KINDS[found.kind] + ")" +
        (changing ? "? " + changing + " scored otherwise will change." : "?"), differencesOf(found), function () {
      put("scores", items.map(function (item) {
        return {target: item.grade, expected: item.score, value: value};
      })).then(function () { afterGroupDecision(found); });
    });
  }
  function firstUndecided(item) {
    return Math.max(0, item.vetoes.findIndex(function (v) { return v.decision === "undecided"; }));
  }
  function decide(decision, wholeGroup) {
    var veto = answer().vetoes[vetoMark];
    if (!veto) { status("no veto candidate in this answer"); return; }
    if (veto.decided_in === "overrides.yaml") { status("decided in overrides.yaml: change it there"); return; }
    var items = wholeGroup ? members(group()) : [answer()];
    var changes = items.map(function (item) {
      var same = item.vetoes.filter(function (v) { return v.id === veto.id && v.decided_in !== "overrides.yaml"; })[0];
      return same && {target: item.student + "/" + veto.id, expected: same.decision, value: decision};
    }).filter(Boolean);
    if (!wholeGroup) {
      var next = answer().vetoes.findIndex(function (v, i) { return i > vetoMark && v.decision === "undecided"; });
      if (next >= 0) vetoMark = next;
      put("vetoes", changes);
      return;
    }
    ask((decision === "upheld" ? "Uphold " : "Dismiss ") + veto.id + " for all " + changes.length +
        " answers of this group?", differencesOf(group()), function () {
      put("vetoes", changes).then(function () { afterGroupDecision(group()); });
    });
  }
  function saveComment() {
    var item = answer(), value = $("comment").value;
    if (value !== item.comment_text) put("comments", [{target: item.comment, expected: item.comment_text || null, value: value}]);
  }
  function nextGroup(step) {
    var target = answer().group + step;
    if (target >= 0 && target < data.groups.length) moveTo(data.groups[target].first);
  }

  // ---- keys --------------------------------------------------------------------------------------------------
  function onKey(event) {
    if (event.target === $("comment")) {
      if (event.key === "Escape" || (event.key === "Enter" && event.ctrlKey)) {
        event.preventDefault();
        $("comment").blur();  // saves (the blur listener)
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || !data) return;
    if (!$("confirm").hidden) {
      if (event.key === "Enter") closeConfirm(true);
      else if (event.key === "Escape") closeConfirm(false);
      event.preventDefault();
      return;
    }
    if (!$("conflict").hidden && (event.key === "y" || event.key === "n")) { resolve(event.key === "y"); return; }
    var whole = groupMode;
    groupMode = false;
    if (/^[0-9]$/.test(event.key)) score(Number(event.key), whole);
    else if (event.key === "u" || event.key === "d") decide(event.key === "u" ? "upheld" : "dismissed", whole);
    else if (event.key === "g") groupMode = !whole;
    else if (event.key === "j") moveTo(position + 1);
    else if (event.key === "k") moveTo(position - 1);
    else if (event.key === "J") nextGroup(1);
    else if (event.key === "K") nextGroup(-1);
    else if (event.key === "v") { vetoMark = (vetoMark + 1) % Math.max(1, answer().vetoes.length); refresh(); }
    else if (event.key === "c") { event.preventDefault(); $("comment").focus(); }
    else if (event.key === " ") $("answer-pane").scrollBy(0, (event.shiftKey ? -0.8 : 0.8) * $("answer-pane").clientHeight);
    else return;
    event.preventDefault();
    refresh();
  }

  function start(loaded) {
    data = loaded;
    index();
    $("prompt").innerHTML = data.prompt_html;  // the lesson's own text, cleaned by the same allow-list
    text($("rubric-title"), data.rubric_title || "评分要点");
    $("rubric").replaceChildren.apply($("rubric"), data.rubric_html.map(function (point) {
      var item = document.createElement("li");
      item.innerHTML = point;  // the lesson's rubric, cleaned by the same allow-list
      return item;
    }));
    if (data.notes.length) { $("notes").hidden = false; text($("notes"), data.notes.join(" ")); }
    var keys = [];
    for (var value = 0; value <= data.max_points; value++) {
      var button = make("button", String(value));
      button.type = "button";
      button.dataset.points = String(value);
      button.addEventListener("click", score.bind(null, value, false));
      $("scores").appendChild(button);
      keys.push(String(value));
    }
    text($("score-keys"), keys.join(" "));
    if (window.autogradeTypeset) { window.autogradeTypeset($("prompt")); window.autogradeTypeset($("rubric")); }
    var firstOpen = data.answers.findIndex(function (item) { return item.score === null; });
    moveTo(firstOpen < 0 ? 0 : firstOpen);
    document.body.dataset.ready = "true";
  }

  document.addEventListener("keydown", onKey);
  $("comment").addEventListener("blur", saveComment);
  $("group-mode").addEventListener("click", function () { groupMode = !groupMode; refresh(); });
  $("confirm-yes").addEventListener("click", function () { closeConfirm(true); });
  $("confirm-no").addEventListener("click", function () { closeConfirm(false); });
  $("conflict-mine").addEventListener("click", function () { resolve(true); });
  $("conflict-theirs").addEventListener("click", function () { resolve(false); });
  fetch(api, {credentials: "same-origin"}).then(function (response) {
    if (!response.ok) throw new Error(response.status + " " + response.statusText);
    return response.json();
  }).then(start).catch(function (error) { status("cannot load the answers: " + error.message); });
}());
