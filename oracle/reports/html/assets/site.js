// The site's script, inlined into every page: copy buttons, and on the matrix filters, sorting and the cell panel.
// Every page is complete without it; it only adds these controls.
(function () {
  "use strict";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { node.textContent = attrs[name]; } else { node.setAttribute(name, attrs[name]); }
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function copyWithSelection(text) {
    var area = el("textarea", {readonly: ""});
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }

  function copy(button) {
    var text = button.getAttribute("data-copy");
    function shown(ok) {
      button.textContent = ok ? "Copied" : "Select and copy";
      button.setAttribute("data-copied", ok ? "yes" : "no");
      window.setTimeout(function () { button.textContent = "Copy"; }, 1500);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { shown(true); },
                                               function () { shown(copyWithSelection(text)); });
    } else {
      shown(copyWithSelection(text));
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (button) { copy(button); }
  });
  document.querySelectorAll("button.copy, button.sort, #filters").forEach(function (node) { node.hidden = false; });

  // ------------------------------------------------------------------ matrix: filters
  var tables = [document.getElementById("rule-matrix"), document.getElementById("card-matrix")]
    .filter(function (t) { return t !== null; });
  if (!tables.length) { return; }

  function value(id) { var node = document.getElementById(id); return node ? node.value : ""; }

  function applyFilters() {
    var group = value("filter-group"), family = value("filter-family"), outcome = value("filter-outcome");
    var text = value("filter-text").trim().toLowerCase();
    var counts = [];
    tables.forEach(function (table) {
      var shown = 0, rows = table.tBodies[0].rows;
      Array.prototype.forEach.call(rows, function (row) {
        var visible = (!group || row.dataset.group === undefined || row.dataset.group === group)
          && (!family || row.dataset.family === undefined || row.dataset.family === family)
          && (!outcome || row.dataset.outcomes.split(" ").indexOf(outcome) >= 0)
          && (!text || row.dataset.text.indexOf(text) >= 0);
        row.hidden = !visible;
        if (visible) { shown += 1; }
      });
      counts.push(shown + " of " + rows.length + (table.id === "rule-matrix" ? " rules" : " cards"));
    });
    document.getElementById("filter-count").textContent = counts.join(", ") + " shown";
  }
  ["filter-group", "filter-family", "filter-outcome", "filter-text"].forEach(function (id) {
    var node = document.getElementById(id);
    if (node) { node.addEventListener("input", applyFilters); node.addEventListener("change", applyFilters); }
  });
  document.getElementById("filters").addEventListener("submit", function (event) { event.preventDefault(); });
  applyFilters();

  // ------------------------------------------------------------------ matrix: sorting
  function sortKey(row, col) {
    var cell = row.cells[col], raw = cell ? cell.getAttribute("data-sort") : "";
    var number = parseFloat(raw);
    return isNaN(number) ? raw : number;
  }
  document.querySelectorAll("button.sort").forEach(function (button) {
    button.addEventListener("click", function () {
      var table = button.closest("table"), col = parseInt(button.getAttribute("data-sort-col"), 10);
      var descending = button.getAttribute("data-dir") === "asc";
      table.querySelectorAll("button.sort").forEach(function (b) { b.removeAttribute("data-dir"); });
      button.setAttribute("data-dir", descending ? "desc" : "asc");
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = sortKey(a, col), y = sortKey(b, col);
        var order = x < y ? -1 : x > y ? 1 : 0;
        if (descending) { order = -order; }
        return order || sortKey(a, 0) - sortKey(b, 0);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });

  // ------------------------------------------------------------------ matrix: a cell opens its failing checks
  var dataNode = document.getElementById("panel-data"), panel = document.getElementById("panel");
  if (!dataNode || !panel) { return; }
  var data = JSON.parse(dataNode.textContent);

  function closePanel() { panel.hidden = true; panel.textContent = ""; }

  function openPanel(link) {
    var key = link.getAttribute("data-key"), col = link.getAttribute("data-col");
    var column = data.columns[parseInt(col, 10)], positions = (data.cells[key] || {})[col] || [];
    var checks = data.checks[parseInt(col, 10)];
    var name = key.slice(key.indexOf("|") + 1);
    panel.textContent = "";
    panel.appendChild(el("button", {type: "button", "class": "close", "aria-label": "close", text: "✕"}));
    panel.appendChild(el("h2", {id: "panel-title"}, [column.label + ": " + name]));
    panel.appendChild(el("p", {"class": "muted"}, [link.textContent.trim() + " · " + positions.length +
      " failing check(s) · ", el("a", {href: link.getAttribute("href"), text: "open on the implementation's page"})]));
    var list = el("ul", {"class": "panel-checks"});
    positions.forEach(function (i) {
      var c = checks[i];
      var item = el("li", {"data-check": c[0]}, [
        el("strong", {}, [c[2] + " " + c[1] + ": "]), el("a", {href: c[6]}, [el("code", {text: c[0]})]),
        el("div", {"class": "muted", text: c[3]}), el("div", {text: c[4]})]);
      if (c[5]) {
        item.appendChild(el("div", {"class": "repro"}, [el("code", {text: c[5]}), " ",
          el("button", {type: "button", "class": "copy", "data-copy": c[5], text: "Copy"})]));
      }
      list.appendChild(item);
    });
    panel.appendChild(list);
    panel.hidden = false;
    panel.querySelector("button.close").focus();
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-key]");
    if (link) { event.preventDefault(); openPanel(link); return; }
    if (event.target.closest("#panel button.close")) { closePanel(); }
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") { closePanel(); } });
}());
