import Mustache

/// The console's templates (Mustache, escaped by default: `{{x}}` is HTML-escaped by
/// `ConsoleEscaping`, only
/// `{{{body}}}` is not, and it can only be a `ConsoleHTML`, a page the engine rendered from
/// these templates and a typed context, never a string put together by hand; charts are drawn
/// by the `barChart` partial from numbers and texts; partials carry templates, no values), its
/// style sheet and its one script, compiled into the binary: nothing is read from disk or
/// fetched from outside.
/// How `{{x}}` is escaped in every console template (each begins with `pragma`): the five
/// characters HTML gives a meaning, `< > & " '`, replaced byte by byte. swift-mustache's own
/// HTML escaping compares grapheme clusters, so a quote followed by a combining mark (`"\u{301}`)
/// is one character that is not `"`, and went through raw: `/staff/audit?q=` reflected such a
/// query out of its `value="…"` (the page's CSP kept script from running; attributes could still
/// be added). Text with none of the five is handed back as it is, without a copy (most values:
/// ids, dates, numbers), a tenth of the queue page's time before.
struct ConsoleEscaping: MustacheContentType {
    static let name = "DOCENT_CONSOLE_HTML"
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

enum ConsoleAssets {
    static let library: MustacheLibrary = {
        var lib = MustacheLibrary()
        MustacheContentTypes.register(ConsoleEscaping(), named: ConsoleEscaping.name)
        for (name, text) in templates {
            // The templates are the program's own: one that does not parse is a bug caught by
            // every console test, never a visitor's input.
            try! lib.register(ConsoleEscaping.pragma + text, named: name)
        }
        return lib
    }()

    static let templates: [(String, String)] = [
        ("layout", layout), ("signin", signin), ("queue", queue), ("visitors", visitors), ("featured", featured), ("announcements", announcements),
        ("pulse", pulse), ("audit", audit), ("message", message), ("banSure", banSure), ("announcementForm", announcementForm),
        ("accounts", StaffAccountsPage.template), ("accountSure", StaffAccountsPage.sure), ("barChart", ConsoleCharts.template),
    ]

    static let layout = """
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · {{t.console}}</title>
        <link rel="stylesheet" href="/staff/static/console.css">
        <script src="/staff/static/console.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">{{t.skip}}</a>
        <header class="top">
        <p class="brand">{{t.console}}</p>
        {{#staff}}
        <nav aria-label="{{t.sections}}"><ul>
        {{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/nav}}
        </ul></nav>
        <form method="post" action="/staff/sign-out" class="signout"><input type="hidden" name="csrf" value="{{csrf}}"><span>{{signedIn}}</span> <button type="submit">{{t.signOut}}</button></form>
        {{/staff}}
        <form method="get" action="{{path}}" class="lang"><label for="lang-pick">{{t.language}}</label>
        <select id="lang-pick" name="lang">{{#languages}}<option value="{{code}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/languages}}</select>
        <button type="submit">{{t.apply}}</button></form>
        </header>
        <main id="main" tabindex="-1">
        <h1>{{title}}</h1>
        {{#flash}}<p class="flash" role="status">{{flash}}</p>{{/flash}}
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        {{{body}}}
        </main>
        </body>
        </html>
        """

    static let signin = """
        <form method="post" action="/staff/sign-in" class="card signin">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="name">{{t.name}}</label><input id="name" name="name" autocomplete="username" value="{{name}}"></p>
        <p><label for="password">{{t.password}}</label><input id="password" name="password" type="password" autocomplete="current-password" required></p>
        <p><button type="submit" class="primary">{{t.signIn}}</button></p>
        </form>
        """

    static let queue = """
        <p>{{waiting}} <span class="hint">{{t.keys}}</span></p>
        {{^items}}<p>{{t.empty}}</p>{{/items}}
        <ol class="queue" aria-label="{{t.queue}}">
        {{#items}}
        <li class="item" id="n-{{dom}}" data-note="{{id}}" tabindex="-1">
        <article aria-labelledby="h-{{dom}}">
        <h2 id="h-{{dom}}">{{title}} <span class="key">{{subject}}</span></h2>
        <p class="meta">{{when}} · {{languageName}} · <strong>{{reason}}</strong> · ▲ {{up}} ▼ {{down}} · {{t.reports}}: {{reports}} · {{t.visitor}}: <span class="key">{{visitor}}</span></p>
        <blockquote lang="{{langTag}}">{{text}}</blockquote>
        {{#hasReporters}}<details><summary>{{t.reports}} ({{reporterCount}})</summary><ul>{{#reporters}}<li><span class="key">{{visitor}}</span> · {{at}}</li>{{/reporters}}</ul></details>{{/hasReporters}}
        <div class="actions">
        <form method="post" action="/staff/notes/{{id}}/decide"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="expected" value="{{decision}}">
        <button type="submit" name="decision" value="removed" class="danger" data-key="h" aria-keyshortcuts="h">{{t.hide}}</button>
        <button type="submit" name="decision" value="restored" data-key="r" aria-keyshortcuts="r">{{t.keep}}</button>
        <button type="submit" name="decision" value="pinned">{{t.pin}}</button></form>
        {{#isVisitor}}<form method="post" action="/staff/visitors/{{visitor}}/ban"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="danger">{{t.ban}}</button></form>{{/isVisitor}}
        </div>
        </article>
        </li>
        {{/items}}
        </ol>
        {{#next}}<nav aria-label="{{t.queuePages}}" class="pages">{{#first}}<a href="{{first}}">{{t.queueFirst}}</a> · {{/first}}<a href="{{next}}" rel="next">{{t.queueNext}}</a></nav>{{/next}}
        {{^next}}{{#first}}<nav aria-label="{{t.queuePages}}" class="pages"><a href="{{first}}">{{t.queueFirst}}</a></nav>{{/first}}{{/next}}
        <section aria-labelledby="hidden-h">
        <h2 id="hidden-h">{{t.hiddenByStaff}}</h2>
        {{^removed}}<p>{{t.none}}</p>{{/removed}}
        <ul class="plain">
        {{#removed}}<li id="r-{{dom}}"><span class="key">{{subject}}</span> {{title}}: <q lang="{{langTag}}">{{text}}</q>
        <form method="post" action="/staff/notes/{{id}}/decide" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="expected" value="removed">
        <button type="submit" name="decision" value="restored">{{t.restore}}</button></form></li>{{/removed}}
        </ul>
        </section>
        """

    static let visitors = """
        <section aria-labelledby="ban-h" class="card">
        <h2 id="ban-h">{{t.banPrompt}}</h2>
        <form method="post" action="/staff/visitors/ban"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="ban-visitor">{{t.visitor}}</label><input id="ban-visitor" name="visitor" required pattern="[a-z0-9]{8,40}"></p>
        <p><button type="submit" class="danger">{{t.ban}}</button></p></form>
        </section>
        <section aria-labelledby="erase-h" class="card">
        <h2 id="erase-h">{{t.erasePrompt}}</h2>
        <form method="post" action="/staff/visitors/erase"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="erase-visitor">{{t.visitor}}</label><input id="erase-visitor" name="visitor" required pattern="[a-z0-9]{8,40}"></p>
        <p><input type="checkbox" id="erase-confirm" name="confirm" value="yes" required> <label for="erase-confirm">{{t.eraseConfirm}}</label></p>
        <p><button type="submit" class="danger">{{t.erase}}</button></p></form>
        </section>
        <section aria-labelledby="bans-h">
        <h2 id="bans-h">{{t.bans}}</h2>
        {{^bans}}<p>{{t.none}}</p>{{/bans}}
        <ul class="plain">{{#bans}}<li><span class="key">{{visitor}}</span> · {{at}} · {{staff}}
        <form method="post" action="/staff/visitors/{{visitor}}/unban" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">{{t.unban}}</button></form></li>{{/bans}}</ul>
        </section>
        """

    static let featured = """
        {{#entries}}
        <section class="card" aria-labelledby="f-{{dom}}">
        <h2 id="f-{{dom}}">{{title}} <span class="key">{{subject}}</span></h2>
        <form method="post" action="/staff/featured"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="subject" value="{{subject}}">
        <p><label for="tier-{{dom}}">{{t.tier}}</label><input id="tier-{{dom}}" name="tier" type="number" min="0" max="100" value="{{tier}}" required></p>
        <p><label for="from-{{dom}}">{{t.from}}</label><input id="from-{{dom}}" name="from" type="datetime-local" value="{{from}}">
        <label for="until-{{dom}}">{{t.until}}</label><input id="until-{{dom}}" name="until" type="datetime-local" value="{{until}}"></p>
        <fieldset><legend>{{t.tagline}}</legend>
        {{#taglines}}<p><label for="tl-{{dom}}-{{code}}">{{name}}</label><input id="tl-{{dom}}-{{code}}" name="tagline-{{code}}" lang="{{code}}" value="{{text}}" maxlength="200" data-preview="pv-{{dom}}-{{code}}">
        <span class="preview" id="pv-{{dom}}-{{code}}"><span class="label">{{t.preview}}:</span> <span class="row" lang="{{code}}">{{cut}}</span> <span class="hint">({{cells}})</span></span></p>{{/taglines}}
        </fieldset>
        <p><button type="submit" class="primary">{{t.save}}</button></p></form>
        </section>
        {{/entries}}
        <section class="card" aria-labelledby="f-new">
        <h2 id="f-new">{{t.addFeatured}}</h2>
        <form method="post" action="/staff/featured"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="new-subject">{{t.subject}}</label><input id="new-subject" name="subject" required placeholder="artwork:1101"></p>
        <p><label for="new-tier">{{t.tier}}</label><input id="new-tier" name="tier" type="number" min="0" max="100" value="1" required></p>
        <p><label for="new-tagline">{{t.tagline}} (English)</label><input id="new-tagline" name="tagline-en" maxlength="200"></p>
        <p><button type="submit" class="primary">{{t.save}}</button></p></form>
        </section>
        """

    static let announcements = """
        <form method="get" action="/staff/announcements" class="card" id="match-form">
        <p><label for="check-patterns">{{t.patterns}}</label><textarea id="check-patterns" name="patterns" rows="3" data-live="match-list">{{patterns}}</textarea></p>
        <p><button type="submit">{{t.checkPatterns}}</button></p>
        </form>
        <section aria-labelledby="m-h" aria-live="polite" id="match-list">
        <h2 id="m-h">{{t.matches}} ({{matchCount}})</h2>
        {{#patternProblem}}<p class="problem">{{patternProblem}}</p>{{/patternProblem}}
        {{^matches}}<p>{{t.noMatch}}</p>{{/matches}}
        <ul class="columns">{{#matches}}<li><span class="key">{{key}}</span> {{title}}</li>{{/matches}}</ul>
        </section>
        {{#entries}}
        <section class="card" aria-labelledby="a-{{dom}}">
        <h2 id="a-{{dom}}">{{id}}</h2>
        {{> announcementForm}}
        </section>
        {{/entries}}
        """

    static let announcementForm = """
        <form method="post" action="/staff/announcements"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="id-{{dom}}">{{t.id}}</label><input id="id-{{dom}}" name="id" value="{{id}}" required pattern="[A-Za-z0-9_-]{1,40}"></p>
        <p><label for="feeds-{{dom}}">{{t.patterns}}</label><textarea id="feeds-{{dom}}" name="feeds" rows="2" required>{{feeds}}</textarea></p>
        <p><label for="style-{{dom}}">{{t.style}}</label><select id="style-{{dom}}" name="style"><option value="card"{{#isCard}} selected{{/isCard}}>{{t.card}}</option><option value="banner"{{^isCard}} selected{{/isCard}}>{{t.banner}}</option></select>
        <label for="pos-{{dom}}">{{t.positions}}</label><input id="pos-{{dom}}" name="positions" value="{{positions}}" pattern="[0-9, ]*"></p>
        <p><label for="afrom-{{dom}}">{{t.from}}</label><input id="afrom-{{dom}}" name="from" type="datetime-local" value="{{from}}">
        <label for="auntil-{{dom}}">{{t.until}}</label><input id="auntil-{{dom}}" name="until" type="datetime-local" value="{{until}}"></p>
        <fieldset><legend>{{t.text}}</legend>{{#texts}}<p><label for="at-{{dom}}-{{code}}">{{name}}</label><input id="at-{{dom}}-{{code}}" name="text-{{code}}" lang="{{code}}" value="{{text}}" maxlength="300"></p>{{/texts}}</fieldset>
        <p><button type="submit" class="primary">{{t.save}}</button></p></form>
        """

    static let pulse = """
        <section aria-labelledby="today-h">
        <h2 id="today-h">{{t.today}} ({{todayLabel}})</h2>
        {{#hasVisitCode}}<p id="visit-code">{{t.visitCodeToday}} <strong>{{visitCode}}</strong></p>{{/hasVisitCode}}
        <dl class="tiles">{{#today}}<div><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/today}}</dl>
        </section>
        <section aria-labelledby="days-h">
        <h2 id="days-h">{{t.last30}}</h2>
        <p><a href="/staff/pulse.csv" download>{{t.csv}}</a></p>
        {{#charts}}
        <figure class="chart" id="chart-{{kind}}">
        <figcaption>{{caption}}</figcaption>
        <div class="scroll chart-box" tabindex="0" role="region" aria-label="{{caption}}">{{#chart}}{{> barChart}}{{/chart}}</div>
        <details><summary>{{t.numbers}}</summary>
        <table><caption>{{caption}}</caption><thead><tr><th scope="col">{{t.day}}</th><th scope="col">{{t.count}}</th></tr></thead>
        <tbody>{{#rows}}<tr><th scope="row">{{day}}</th><td>{{value}}</td></tr>{{/rows}}</tbody></table>
        </details>
        </figure>
        {{/charts}}
        </section>
        <section aria-labelledby="top-h"><h2 id="top-h">{{t.mostPlayed}}</h2>
        {{^mostPlayed}}<p>{{t.none}}</p>{{/mostPlayed}}
        <ol>{{#mostPlayed}}<li>{{title}} <span class="key">{{key}}</span> — {{count}}</li>{{/mostPlayed}}</ol></section>
        <section aria-labelledby="liked-h"><h2 id="liked-h">{{t.bestLiked}}</h2>
        {{^bestLiked}}<p>{{t.none}}</p>{{/bestLiked}}
        <ol>{{#bestLiked}}<li>{{title}} <span class="key">{{key}}</span> — ▲ {{up}} ▼ {{down}}</li>{{/bestLiked}}</ol></section>
        <section aria-labelledby="ab-h"><h2 id="ab-h">{{t.abandoned}}</h2>
        {{^abandoned}}<p>{{t.none}}</p>{{/abandoned}}
        {{#hasAbandoned}}<table><thead><tr><th scope="col">{{t.stop}}</th><th scope="col">{{t.plays}}</th><th scope="col">{{t.lost}}</th></tr></thead>
        <tbody>{{#abandoned}}<tr><th scope="row">{{title}} <span class="key">{{key}}</span></th><td>{{plays}}</td><td>{{lost}}</td></tr>{{/abandoned}}</tbody></table>{{/hasAbandoned}}
        </section>
        """

    static let audit = """
        <form method="get" action="/staff/audit" class="card filters">
        <p><label for="f-staff">{{t.who}}</label><select id="f-staff" name="staff"><option value="">{{t.any}}</option>{{#staffOptions}}<option{{#selected}} selected{{/selected}}>{{name}}</option>{{/staffOptions}}</select>
        <label for="f-action">{{t.action}}</label><select id="f-action" name="action"><option value="">{{t.any}}</option>{{#actionOptions}}<option{{#selected}} selected{{/selected}}>{{name}}</option>{{/actionOptions}}</select>
        <label for="f-q">{{t.search}}</label><input id="f-q" name="q" value="{{q}}">
        <button type="submit">{{t.filter}}</button></p>
        </form>
        <p><a href="/staff/audit.csv{{query}}" download>{{t.csv}}</a></p>
        {{^entries}}<p>{{t.none}}</p>{{/entries}}
        {{#hasEntries}}<div class="scroll" tabindex="0" role="region" aria-label="{{t.audit}}"><table class="audit"><thead><tr><th scope="col">{{t.when}}</th><th scope="col">{{t.who}}</th><th scope="col">{{t.action}}</th><th scope="col">{{t.target}}</th><th scope="col">{{t.before}}</th><th scope="col">{{t.after}}</th></tr></thead>
        <tbody>{{#entries}}<tr><td>{{at}}</td><td>{{staff}}</td><td>{{action}}</td><td class="key">{{target}}</td><td>{{before}}</td><td>{{after}}</td></tr>{{/entries}}</tbody></table></div>{{/hasEntries}}
        """

    /// "Ban the writer" asks first (issue 44 #14).
    static let banSure = """
        <p>{{question}}</p>
        <form method="post" action="/staff/visitors/{{visitor}}/ban"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="confirm" value="yes">
        <p><button type="submit" class="danger">{{t.banYes}}</button> <a href="/staff/queue">{{t.queue}}</a></p></form>
        """

    static let message = """
        <p>{{text}}</p>
        <p><a href="{{back}}">{{backLabel}}</a></p>
        """

    static let css = """
        :root { --ink: #1a1a1a; --muted: #4a4a4a; --paper: #ffffff; --line: #767676; --accent: #0b57d0; --accent-soft: #e8f0fe; --danger: #a50e0e; --ok: #0d652d; }
        * { box-sizing: border-box; }
        html { font-size: 100%; }
        body { margin: 0; font-family: system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; color: var(--ink); background: var(--paper); line-height: 1.5; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, .item:focus, [tabindex]:focus-visible {
          outline: 3px solid var(--ink); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem; }
        .skip:focus { left: .5rem; }
        .top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
        .brand { font-weight: 700; margin: 0; }
        .top nav ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
        .top nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
        .top form { margin: 0; display: flex; gap: .4rem; align-items: center; flex-wrap: wrap; }
        main { padding: 1rem; max-width: 60rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
        h2 { font-size: 1.15rem; margin: .5rem 0; }
        label { font-weight: 600; margin-right: .4rem; }
        input, select, textarea { font: inherit; color: var(--ink); background: var(--paper); border: 1px solid var(--line); border-radius: 4px; padding: .35rem .5rem; max-width: 100%; }
        textarea { width: 100%; }
        p > label { display: inline-block; }
        .signin input { display: block; width: 100%; max-width: 24rem; }
        button { font: inherit; color: var(--ink); background: #f1f3f4; border: 1px solid var(--line); border-radius: 4px; padding: .35rem .8rem; cursor: pointer; min-height: 2.25rem; }
        button.primary { background: var(--accent); color: #ffffff; border-color: var(--accent); }
        button.danger { background: var(--danger); color: #ffffff; border-color: var(--danger); }
        .card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
        .flash { background: #e6f4ea; border-left: 4px solid var(--ok); padding: .5rem .75rem; }
        .problem { background: #fce8e6; border-left: 4px solid var(--danger); padding: .5rem .75rem; }
        .hint, .meta { color: var(--muted); }
        .key { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; color: var(--muted); overflow-wrap: anywhere; }
        .queue { list-style: none; padding: 0; margin: 0; }
        .item { border: 1px solid var(--line); border-left: 6px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: 0 0 .75rem; }
        .item.current { border-left-color: var(--accent); background: var(--accent-soft); }
        .item blockquote { margin: .5rem 0; padding-left: .75rem; border-left: 3px solid var(--line); overflow-wrap: anywhere; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
        .actions form { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0; }
        form.inline { display: inline; }
        .plain { list-style: none; padding: 0; }
        .plain li { margin: .35rem 0; }
        .preview { display: block; margin: .25rem 0 0; }
        .preview .row { font-family: ui-monospace, "DejaVu Sans Mono", monospace; background: #f1f3f4; padding: 0 .3rem; white-space: pre-wrap; overflow-wrap: anywhere; }
        fieldset { border: 1px solid var(--line); border-radius: 6px; }
        .columns { columns: 2 14rem; }
        .tiles { display: flex; flex-wrap: wrap; gap: .75rem; margin: 0; }
        .tiles div { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; min-width: 8rem; }
        .tiles dt { color: var(--muted); }
        .tiles dd { margin: 0; font-size: 1.6rem; font-weight: 700; }
        .chart { margin: 0 0 1.5rem; }
        .chart svg { width: 100%; height: auto; max-width: 48rem; display: block; }
        .chart figcaption { font-weight: 600; }
        table { border-collapse: collapse; }
        th, td { border-bottom: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
        .scroll { overflow-x: auto; }
        /* On a phone the tables and charts scroll sideways rather than shrink: words were
           broken into 1-2 letters and chart labels drawn at 6 px (issue 44 #14). */
        .audit { min-width: 44rem; }
        .audit td { overflow-wrap: break-word; }
        .chart-box svg { min-width: 720px; }
        @media (max-width: 40rem) { main { padding: .75rem; } .top { padding: .5rem .75rem; } }
        """

    /// Keyboard moderation (j/k move, h hide, r keep) and live previews; every action is also a
    /// plain form, so the console works without it.
    static let js = """
        (function () {
          "use strict";
          function items() { return Array.prototype.slice.call(document.querySelectorAll(".queue .item")); }
          function current() { return document.querySelector(".queue .item.current"); }
          function select(el) {
            items().forEach(function (i) { i.classList.remove("current"); });
            if (!el) return;
            el.classList.add("current");
            el.focus();
          }
          function typing(e) {
            var t = e.target && e.target.tagName;
            return t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.altKey || e.ctrlKey || e.metaKey;
          }
          document.addEventListener("keydown", function (e) {
            if (typing(e) || !document.querySelector(".queue")) return;
            var list = items(), cur = current(), i = list.indexOf(cur);
            if (e.key === "j") { select(list[Math.min(list.length - 1, i + 1)] || list[0]); e.preventDefault(); }
            else if (e.key === "k") { select(list[Math.max(0, i - 1)] || list[0]); e.preventDefault(); }
            else if ((e.key === "h" || e.key === "r") && cur) {
              var b = cur.querySelector('button[data-key="' + e.key + '"]');
              if (b) { b.click(); e.preventDefault(); }
            }
          });
          document.addEventListener("focusin", function (e) {
            var item = e.target.closest && e.target.closest(".queue .item");
            if (item && !item.classList.contains("current")) {
              items().forEach(function (i) { i.classList.remove("current"); });
              item.classList.add("current");
            }
          });
          window.addEventListener("DOMContentLoaded", function () {
            var want = new URLSearchParams(location.search).get("focus");
            var list = items();
            if (list.length) {
              var el = want && document.querySelector('.queue .item[data-note="' + CSS.escape(want) + '"]');
              select(el || list[0]);
            }
            // Taglines: the guide's cut of what is typed, from the service as it is typed.
            Array.prototype.slice.call(document.querySelectorAll("[data-preview]")).forEach(function (field) {
              var timer = null;
              field.addEventListener("input", function () {
                clearTimeout(timer);
                timer = setTimeout(function () {
                  fetch("/staff/featured/preview?text=" + encodeURIComponent(field.value), { credentials: "same-origin" })
                    .then(function (r) { return r.ok ? r.text() : null; }).then(function (text) {
                      if (text === null) return;
                      var parts = text.split("\\n");
                      var box = document.getElementById(field.getAttribute("data-preview"));
                      if (!box) return;
                      var row = box.querySelector(".row"), hint = box.querySelector(".hint");
                      if (row) row.textContent = parts[0];
                      if (hint) hint.textContent = "(" + (parts[1] || "") + ")";
                    });
                }, 250);
              });
            });
            var live = document.querySelector("[data-live]");
            if (live) {
              var timer = null;
              live.addEventListener("input", function () {
                clearTimeout(timer);
                timer = setTimeout(function () {
                  var url = "/staff/announcements?fragment=1&patterns=" + encodeURIComponent(live.value);
                  fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
                    if (html === null) return;
                    var target = document.getElementById(live.getAttribute("data-live"));
                    var doc = new DOMParser().parseFromString(html, "text/html");
                    var fresh = doc.getElementById(live.getAttribute("data-live"));
                    if (target && fresh) target.innerHTML = fresh.innerHTML;
                  });
                }, 250);
              });
            }
          });
        })();
        """
}
