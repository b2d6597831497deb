(function () {
  'use strict';
  // Progressive enhancement only: the page is complete without this script.
  var doc = document;
  var dark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  var live = [];
  var sel = doc.getElementById('system-select');
  var bar = doc.getElementById('sysbar');

  function theme() { return dark && dark.matches ? 'dark' : null; }

  function draw(l) {
    l.chart = window.echarts.init(l.el, theme(), { renderer: 'canvas' });
    l.chart.setOption(l.opt);
  }

  // start replaces the static figure by its interactive chart. The option
  // is JSON data of the page, parsed, never evaluated.
  function start(fig) {
    if (fig.getAttribute('data-ready') || !window.echarts) { return; }
    var src = doc.getElementById('opt-' + fig.getAttribute('data-chart'));
    if (!src) { return; }
    var opt;
    try { opt = JSON.parse(src.textContent); } catch (e) { return; }
    opt.backgroundColor = 'transparent';
    var el = doc.createElement('div');
    el.className = 'fig-live';
    // The chart takes the place of the static figure at its size, so the
    // page does not move as charts start; the chart's own height is the
    // fallback.
    var st = fig.querySelector('.fig-static');
    var sh = st ? Math.round(st.getBoundingClientRect().height) : 0;
    el.style.height = (sh >= 240 ? sh : (parseInt(fig.getAttribute('data-height'), 10) || 360)) + 'px';
    el.setAttribute('role', 'img');
    var alt = fig.querySelector('.fig-alt');
    el.setAttribute('aria-label', alt ? alt.textContent : 'chart');
    fig.insertBefore(el, fig.firstChild);
    var l = { el: el, opt: opt, chart: null };
    draw(l);
    live.push(l);
    fig.classList.add('is-live');
    fig.setAttribute('data-ready', 'true');
  }

  var figs = doc.querySelectorAll('figure[data-chart]');
  if (window.echarts && figs.length) {
    if ('IntersectionObserver' in window) {
      var io = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) { io.unobserve(e.target); start(e.target); }
        });
      }, { rootMargin: '300px 0px' });
      figs.forEach(function (f) { io.observe(f); });
    } else {
      figs.forEach(start);
    }
    var pending = 0;
    window.addEventListener('resize', function () {
      clearTimeout(pending);
      pending = setTimeout(function () { live.forEach(function (l) { l.chart.resize(); }); }, 100);
    });
    if (dark && dark.addEventListener) {
      dark.addEventListener('change', function () {
        live.forEach(function (l) { l.chart.dispose(); draw(l); });
      });
    }
  }

  // The system selector shows one system's block in every section; the
  // baseline blocks stay. Without scripts every block is there.
  // The empty value is "All systems": every block shown and open. The
  // print note names what a system is called for this input (data-word:
  // system, run, classifier) and the selector's own label.
  var printNote = doc.getElementById('print-systems');
  var selLabel = doc.querySelector('label[for="system-select"]');
  function show(name) {
    doc.querySelectorAll('details.sys:not(.base)').forEach(function (d) {
      var on = name === '' || d.getAttribute('data-system') === name;
      d.hidden = !on;
      if (on) { d.open = true; }
    });
    if (printNote) {
      var o = sel.options[sel.selectedIndex];
      var w = printNote.getAttribute('data-word') || 'system';
      printNote.textContent = name === '' ? '' : 'This print shows the per-' + w + ' tables and figures of ' +
        (o ? o.text : name) + ' only; to print another ' + w + ', or all of them, choose it under "' +
        (selLabel ? selLabel.textContent : 'Show ' + w) + '" before printing.';
    }
  }
  if (sel && bar && sel.options.length > 1) {
    bar.hidden = false;
    sel.addEventListener('change', function () { show(sel.value); });
    show(sel.value);
  }

  // Sorting: a click on a numeric column header of the results matrix or
  // of a long table orders its rows by that column, largest first; a
  // second click reverses. Baseline rows stay at the bottom; a cell
  // without a number ("n/a", empty) sorts last. Without scripts the order
  // is the order built.
  function cellNumber(c) {
    if (!c) { return NaN; }
    var v = c.querySelector('.v');
    var m = (v || c).textContent.replace(/,/g, '').match(/(<\s*)?(-?[0-9]+(\.[0-9]+)?)/);
    if (!m) { return NaN; }
    var x = parseFloat(m[2]);
    return m[1] ? x / 2 : x;
  }
  function sortBy(th, dir) {
    var table = th.closest('table');
    var body = table.tBodies[0];
    var col = th.cellIndex;
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (r, i) {
      return { r: r, i: i, base: r.classList.contains('base'), x: cellNumber(r.cells[col]) };
    });
    keyed.sort(function (a, b) {
      if (a.base !== b.base) { return a.base ? 1 : -1; }
      var an = isNaN(a.x), bn = isNaN(b.x);
      if (an || bn) { return an === bn ? a.i - b.i : (an ? 1 : -1); }
      return a.x === b.x ? a.i - b.i : (dir === 'descending' ? b.x - a.x : a.x - b.x);
    });
    keyed.forEach(function (k) { body.appendChild(k.r); });
    table.querySelectorAll('thead th[aria-sort]').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
  }
  doc.querySelectorAll('table').forEach(function (table) {
    if (!table.tHead || !table.tBodies[0] || table.tBodies[0].rows.length < 3) { return; }
    table.tHead.querySelectorAll('th.num').forEach(function (th) {
      var b = doc.createElement('button');
      b.type = 'button';
      b.className = 'sort';
      while (th.firstChild) { b.appendChild(th.firstChild); }
      b.setAttribute('title', 'Sort by this column (again: the other way)');
      th.appendChild(b);
      b.addEventListener('click', function () {
        sortBy(th, th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending');
      });
    });
  });

  // A print is a complete record: every collapsed block prints open (the
  // print stylesheet does the same where the browser allows it), and
  // closes again after printing.
  var closedForPrint = [];
  window.addEventListener('beforeprint', function () {
    doc.querySelectorAll('details:not([open])').forEach(function (d) {
      d.open = true;
      closedForPrint.push(d);
    });
  });
  window.addEventListener('afterprint', function () {
    closedForPrint.forEach(function (d) { d.open = false; });
    closedForPrint = [];
  });

  // A deep link into another system's block selects that system.
  function reveal() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { return; }
    var t = id && doc.getElementById(id);
    if (!t) { return; }
    var d = t.closest('details.sys');
    if (d && sel && !d.classList.contains('base')) { sel.value = d.getAttribute('data-system'); show(sel.value); }
    // Open every collapsed block around the target (a system's block, a
    // long table, METHODS.md), then bring it below the sticky bar.
    var opened = false;
    for (var p = t.parentElement; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS' && !p.open) { p.open = true; opened = true; }
    }
    if (d || opened) { t.scrollIntoView(); }
  }
  window.addEventListener('hashchange', reveal);
  reveal();

  // The link icon also copies the deep link, where the browser allows it.
  doc.addEventListener('click', function (e) {
    var a = e.target.closest ? e.target.closest('a.anchor') : null;
    if (!a || !navigator.clipboard || !navigator.clipboard.writeText) { return; }
    var url = location.href.split('#')[0] + a.getAttribute('href');
    navigator.clipboard.writeText(url).then(function () {
      a.classList.add('copied');
      setTimeout(function () { a.classList.remove('copied'); }, 1500);
    }, function () {});
  });
})();
