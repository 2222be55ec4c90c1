/// The style sheet and the script of the HTML report, written here in full: the page loads
/// nothing from anywhere (its Content-Security-Policy forbids it).
enum ReportAssets {
    /// The page's Content-Security-Policy: nothing may be fetched; only the inline style and script run.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    static let css = """
    :root { --fg: #1f2933; --muted: #616e7c; --line: #d9e2ec; --bg: #ffffff; --panel: #f5f7fa; --accent: #1565c0;
      --delivered: #2e7d32; --held_out: #7b1fa2; --capped: #ef6c00; --lower_priority: #90a4ae; --limited: #c62828; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
    main { max-width: 1080px; margin: 0 auto; padding: 12px 16px 48px; }
    h1 { font-size: 1.6em; margin: .4em 0 .2em; } h2 { font-size: 1.3em; margin: 1.6em 0 .4em; border-bottom: 1px solid var(--line); padding-bottom: .2em; }
    h3 { font-size: 1.05em; margin: 1.2em 0 .4em; }
    .muted, .note { color: var(--muted); } .note { font-size: .9em; }
    .facts { display: flex; flex-wrap: wrap; gap: 8px 20px; padding: 0; list-style: none; }
    .facts li b { display: block; font-size: 1.25em; }
    nav a { margin-right: 12px; color: var(--accent); white-space: nowrap; }
    .scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
    table { border-collapse: collapse; min-width: 100%; font-variant-numeric: tabular-nums; }
    th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--line); vertical-align: middle; white-space: nowrap; }
    td.num, th.num { text-align: right; }
    td.barcell { width: 40%; min-width: 100px; }
    .bar { display: flex; height: 12px; background: var(--panel); border-radius: 2px; overflow: hidden; }
    .bar span { display: block; height: 100%; }
    .bar .users { background: var(--accent); }
    .status-delivered { background: var(--delivered); fill: var(--delivered); }
    .status-held_out { background: var(--held_out); fill: var(--held_out); }
    .status-capped { background: var(--capped); fill: var(--capped); }
    .status-lower_priority { background: var(--lower_priority); fill: var(--lower_priority); }
    .status-limited { background: var(--limited); fill: var(--limited); }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: .88em; margin: 4px 0; padding: 0; list-style: none; }
    .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
    .map-box { position: relative; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; background: #eef2f5; }
    svg.map { display: block; width: 100%; height: min(70vh, 640px); touch-action: none; cursor: grab; }
    .map-bg { fill: #eef2f5; }
    .region { stroke: #37474f; stroke-width: 1; vector-effect: non-scaling-stroke; fill-opacity: .85; }
    .region:hover, .region.picked { stroke: #000; stroke-width: 2.5; }
    .track { fill: none; stroke: var(--accent); stroke-width: 2; vector-effect: non-scaling-stroke; stroke-linejoin: round; opacity: .8; }
    .visit { fill: #ffffff; stroke: var(--accent); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    .decision { stroke: #fff; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    .map-tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
    .map-tools button, .map-tools select { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
    #map-info { min-height: 1.5em; margin: 4px 0; }
    .heat { display: inline-block; width: 120px; height: 10px; vertical-align: middle; border-radius: 2px;
      background: linear-gradient(90deg, #ffeda0, #feb24c, #f03b20, #800026); }
    svg.day-chart, svg.lift-interval { display: block; width: 100%; max-width: 640px; height: auto; }
    .axis { stroke: #7b8794; stroke-width: 1; } .zero { stroke: #1f2933; stroke-width: 1.5; stroke-dasharray: 4 3; }
    .tick { font-size: 11px; fill: var(--muted); }
    .ci { fill: #90caf9; } .estimate { fill: var(--accent); }
    .lift dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
    .lift dt { color: var(--muted); } .lift dd { margin: 0; font-variant-numeric: tabular-nums; }
    .verdict { padding: 8px 12px; border-radius: 6px; background: var(--panel); border-left: 4px solid var(--muted); }
    .verdict.not-enough { border-left-color: var(--capped); } .verdict.significant { border-left-color: var(--delivered); }
    .campaign-report { margin-top: 8px; }
    @media (max-width: 600px) { body { font-size: 14px; } main { padding: 8px 10px 32px; } svg.map { height: 60vh; }
      td.barcell { min-width: 70px; } .lift dl { grid-template-columns: 1fr; } .lift dt { margin-top: 4px; } }
    """

    /// Pan (drag), zoom (wheel, pinch, buttons), a campaign filter and the picked region's
    /// name, by changing the map's viewBox: plain JavaScript, no library.
    static let js = """
    (function () {
      var svg = document.getElementById('map'); if (!svg) return;
      var vb = svg.viewBox.baseVal, home = [vb.x, vb.y, vb.width, vb.height], info = document.getElementById('map-info');
      function set(b) { vb.x = b[0]; vb.y = b[1]; vb.width = b[2]; vb.height = b[3]; }
      function at(x, y) { var p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(svg.getScreenCTM().inverse()); }
      function zoom(f, c) { set([c.x - (c.x - vb.x) * f, c.y - (c.y - vb.y) * f, vb.width * f, vb.height * f]); }
      function middle() { return { x: vb.x + vb.width / 2, y: vb.y + vb.height / 2 }; }
      svg.addEventListener('wheel', function (e) { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, at(e.clientX, e.clientY)); }, { passive: false });
      var down = {}, moved = false;
      svg.addEventListener('pointerdown', function (e) { down[e.pointerId] = { x: e.clientX, y: e.clientY }; moved = false; svg.setPointerCapture(e.pointerId); });
      svg.addEventListener('pointermove', function (e) {
        var last = down[e.pointerId]; if (!last) return;
        var ids = Object.keys(down);
        if (ids.length === 1) {
          var a = at(last.x, last.y), b = at(e.clientX, e.clientY);
          if (Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y) > 2) moved = true;
          set([vb.x - (b.x - a.x), vb.y - (b.y - a.y), vb.width, vb.height]);
        } else if (ids.length === 2) {
          var o = down[ids[0] == e.pointerId ? ids[1] : ids[0]];
          var before = Math.hypot(last.x - o.x, last.y - o.y), after = Math.hypot(e.clientX - o.x, e.clientY - o.y);
          if (before > 0 && after > 0) zoom(before / after, at((o.x + e.clientX) / 2, (o.y + e.clientY) / 2));
          moved = true;
        }
        down[e.pointerId] = { x: e.clientX, y: e.clientY };
      });
      function up(e) { delete down[e.pointerId]; }
      svg.addEventListener('pointerup', up); svg.addEventListener('pointercancel', up);
      svg.addEventListener('click', function (e) {
        if (moved) return;
        // The pointer capture of a drag makes the svg the click's target: ask what is under the pointer.
        var hit = document.elementFromPoint(e.clientX, e.clientY), old = svg.querySelector('.picked');
        var t = hit && hit.closest ? hit.closest('.region, .decision, .visit') : null;
        if (old) old.classList.remove('picked');
        if (!t) { info.textContent = ''; return; }
        t.classList.add('picked');
        var title = t.querySelector('title'); info.textContent = title ? title.textContent : '';
      });
      document.getElementById('zoom-in').addEventListener('click', function () { zoom(0.67, middle()); });
      document.getElementById('zoom-out').addEventListener('click', function () { zoom(1.5, middle()); });
      document.getElementById('zoom-reset').addEventListener('click', function () { set(home); });
      var pick = document.getElementById('map-campaign');
      pick.addEventListener('change', function () {
        var groups = svg.querySelectorAll('g.campaign');
        for (var i = 0; i < groups.length; i++) groups[i].style.display = (!pick.value || groups[i].getAttribute('data-campaign') === pick.value) ? '' : 'none';
      });
    })();
    """
}
