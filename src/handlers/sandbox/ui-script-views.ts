/**
 * The inspector's script, part 2: the request journal (filters, detail with headers, bodies, the
 * 422's fields and near misses), teams and keys (masked, copy buttons), and the event journal.
 */
export const UI_SCRIPT_VIEWS = `
function filterForm(key, fields, onchange) {
  var f = S.filters[key] || (S.filters[key] = {});
  return h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter', onsubmit: function (e) { e.preventDefault(); refresh(); } },
    fields.map(function (fd) {
      var id = key + '-' + fd[0];
      return h('label', { for: id }, fd[1] + ' ',
        h('input', { id: id, name: fd[0], value: f[fd[0]] || '', placeholder: fd[2] || '', size: fd[3] || 12,
          oninput: function (e) { f[fd[0]] = e.target.value; if (onchange) onchange(); } }));
    }),
    h('button', { type: 'submit', text: 'Apply' }));
}

VIEWS.requests = function (parts) {
  if (parts[0]) return VIEWS.request(parts);
  var f = S.filters.requests || {};
  return api('GET', '/_sandbox/requests' + qs({ status: f.status, route: f.route, path: f.path, team_id: f.team_id, limit: 200 })).then(function (page) {
    return section('Requests',
      h('p', { class: 'note' }, 'The ' + page.size + ' most recent requests (' + page.recorded + ' since start), newest first. Bodies are kept for errors' + (page.bodies ? ' and every request' : '') + '; keys are masked.'),
      filterForm('requests', [['status', 'Status', '404 or 4xx', 6], ['route', 'Route', 'users.* or none', 16], ['path', 'Path', '/v2/user', 16], ['team_id', 'Team id', '', 12]]),
      table(['Id', 'Sandbox time', 'Method', 'Path', 'Status', 'ms', 'Route', 'Team'], page.requests.map(function (r) {
        return row([
          link('#requests/' + r.id, r.id), time(r.sandbox_time), r.method,
          h('code', { text: (r.surface === 'management' ? '/management' : '') + r.path + (r.query ? '?' + r.query : '') }),
          h('span', { class: 'status ' + (r.dropped ? 's5' : statusClass(r.status)), text: r.dropped ? 'dropped' : r.status }), String(r.duration_ms),
          r.route_id ? h('code', { text: r.route_id }) : h('em', { text: r.near_misses && r.near_misses.length ? 'no route (near misses)' : 'no route' }),
          short(r.team_id) + (r.environment ? ' ' + r.environment : ''),
        ], { class: r.dropped || r.status >= 400 ? 'error-row' : null });
      }), 'Request journal'));
  });
};

VIEWS.request = function (parts) {
  var id = parts[0];
  return api('GET', '/_sandbox/requests' + qs({ id: id })).then(function (page) {
    var r = page.requests.filter(function (x) { return x.id === id; })[0];
    if (!r) return section('Request ' + id, h('p', { text: 'Not in the journal any more (it keeps the most recent ' + page.size + ').' }), link('#requests', 'Back to requests'));
    return section('Request ' + r.id,
      link('#requests', 'Back to requests'),
      h('dl', { class: 'facts' },
        [['Method and path', r.method + ' ' + (r.surface === 'management' ? '/management' : '') + r.path + (r.query ? '?' + r.query : '')], ['Status', r.dropped ? 'dropped (no answer sent)' : String(r.status)],
         ['Route', r.route_id || 'no route matched'], ['Team', r.team_id ? r.team_id + ' (' + r.environment + ')' : '-'],
         ['Sandbox time', time(r.sandbox_time)], ['Wall time', time(r.wall_time)], ['Duration', r.duration_ms + ' ms'], ['Fault', r.fault ? r.fault.rule + ' (' + r.fault.id + (r.fault.latency_ms !== null ? ', waited ' + r.fault.latency_ms + ' ms' : '') + ')' : '-']]
          .map(function (p) { return [h('dt', { text: p[0] }), h('dd', { text: p[1] })]; })),
      r.near_misses && r.near_misses.length ? h('div', { class: 'near', role: 'note' }, h('h3', { text: 'Near misses: routes this request nearly matched' }),
        h('ul', null, r.near_misses.map(function (n) {
          return h('li', null, h('code', { text: n.method + ' ' + (n.surface === 'management' ? '/management' : '') + n.path }), ' (' + n.kind + ': ' + n.hint + ') ', h('code', { text: n.route_id }));
        }))) : null,
      r.invalid && r.invalid.length ? h('div', { class: 'near', role: 'note' }, h('h3', { text: 'Fields that failed validation' }),
        h('ul', null, r.invalid.map(function (loc) { return h('li', null, h('code', { text: loc.join('.') })); }))) : null,
      h('h3', { text: 'Request headers' }), pre(indented(r.request.headers), 'Request headers'),
      h('h3', { text: 'Request body (' + r.request.body_bytes + ' bytes)' }), pre(r.request.body === null ? (r.request.body_bytes ? '(not kept: only errors keep bodies unless --request-log-bodies)' : '(empty)') : pretty(r.request.body), 'Request body'),
      h('h3', { text: 'Response body (' + r.response.body_bytes + ' bytes, ' + (r.response.content_type || 'no type') + ')' }),
      pre(r.response.body === null ? (r.response.body_bytes ? '(not kept)' : '(empty)') : pretty(r.response.body), 'Response body'));
  });
};

VIEWS.teams = function () {
  var c = S.creds;
  return Promise.resolve(section('Teams and keys',
    h('dl', { class: 'facts' },
      h('dt', { text: 'Base URL' }), h('dd', null, h('code', { text: c.base_url })),
      h('dt', { text: 'Management URL' }), h('dd', null, h('code', { text: c.management_url })),
      h('dt', { text: 'Org id' }), h('dd', null, h('code', { text: c.org_id })),
      h('dt', { text: 'Management key' }), h('dd', null, h('code', { text: mask(c.management_key) }), ' ', copyButton(c.management_key, 'management key')),
      h('dt', { text: 'Documentation' }), h('dd', null, link('/docs', '/docs (Swagger UI)'))),
    table(['Team', 'Team id', 'Region', 'Environment', 'API key', ''], c.teams.reduce(function (rows, t) {
      ['sandbox', 'production'].forEach(function (env) {
        rows.push(row([t.name, h('code', { text: t.team_id }), t.region, env, h('code', { text: mask(t.api_keys[env]) }), copyButton(t.api_keys[env], t.name + ' ' + env + ' key')]));
      });
      return rows;
    }, []), 'Teams, environments and API keys (masked; Copy puts the whole key on the clipboard)')));
};

VIEWS.events = function () {
  var f = S.filters.events || {};
  var t = teamOf();
  return Promise.all([
    api('GET', '/_sandbox/events' + qs({ team_id: t.team_id, environment: S.env, event_type_prefix: f.prefix, user_id: f.user_id, limit: 10000 })),
    api('GET', '/_sandbox/jobs?limit=20'),
  ]).then(function (r) {
    var page = r[0], jobs = r[1];
    var events = page.events.slice(-200).reverse();
    return section('Events',
      h('p', { class: 'note', text: 'The event journal of ' + t.name + ' / ' + S.env + ', newest first (the last 200 of ' + page.total + ').' }),
      filterForm('events', [['prefix', 'Type prefix', 'labtest.', 14], ['user_id', 'User id', '', 14]]),
      table(['Seq', 'Sandbox time', 'Type', 'User', 'Data'], events.map(function (e) {
        var d = e.envelope.data || {};
        return row([String(e.seq), time(e.occurred_at), h('code', { text: e.envelope.event_type }),
          e.envelope.user_id ? link('#user/' + e.envelope.user_id, short(e.envelope.user_id)) : '',
          h('details', null, h('summary', { text: d.status || d.id || 'data' }), pre(indented(d), 'Event data'))]);
      }), 'Event journal'),
      table(['Due (sandbox time)', 'Job'], jobs.jobs.map(function (j) { return row([time(j.at), j.label]); }), 'Next scheduled jobs (' + jobs.pending + ' pending): what advancing the clock will run'));
  });
};

VIEWS.faults = function () {
  return Promise.all([api('GET', '/_sandbox/faults'), api('GET', '/_sandbox/snapshots')]).then(function (r) {
    var faults = r[0].faults, snaps = r[1].snapshots;
    return section('Faults & snapshots',
      h('p', { class: 'note', text: 'HTTP fault rules in force (POST /_sandbox/faults: docs/testing.md "Rehearsing failures") and the worlds saved in memory (POST /_sandbox/snapshots).' }),
      table(['Rule', 'Match', 'Action', 'Left', 'Matched', 'Fired', ''], faults.map(function (f) {
        return row([h('code', { text: short(f.id) }), pre(JSON.stringify(f.match, null, 2), 'Match'), pre(JSON.stringify(f.action, null, 2), 'Action'),
          f.remaining === null ? 'unlimited' : String(f.remaining), String(f.matched), String(f.fired),
          button('Remove', function () { return api('DELETE', '/_sandbox/faults/' + f.id); })]);
      }), 'Fault rules'),
      table(['Snapshot', 'Sandbox time', 'Seed', 'Inputs', ''], snaps.map(function (x) {
        return row([x.name, time(x.now), String(x.seed), String(x.inputs),
          button('Restore', function () { return api('POST', '/_sandbox/snapshots/' + encodeURIComponent(x.name) + '/restore'); })]);
      }), 'Snapshots'));
  });
};
`;
