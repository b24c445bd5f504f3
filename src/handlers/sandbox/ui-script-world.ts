/**
 * The inspector's script, part 3: the world of the selected team environment, read through the
 * team API (its key) and the control plane: users with connections, pull status and errors; a
 * user's page with the ECG trace of a session drawn as SVG (classification and heart rate, with
 * a text alternative) and recent summaries; lab orders with their status timeline, appointment,
 * results, result PDF and the `POST /v3/order/{id}/test` button; webhook endpoints, messages and
 * every attempt with resend and recover buttons; pipelines.
 */
export const UI_SCRIPT_WORLD = String.raw`
function day(iso, deltaDays) { var d = new Date(Date.parse(iso) + (deltaDays || 0) * 86400000); return d.toISOString().slice(0, 10); }

VIEWS.users = function () {
  return teamApi('GET', '/v2/user?limit=100').then(function (page) {
    return section('Users of ' + teamOf().name + ' / ' + S.env,
      h('p', { class: 'note', text: page.total + ' users; the first 100.' }),
      table(['User', 'Client user id', 'Created', 'Connected sources'], page.users.map(function (u) {
        return row([link('#user/' + u.user_id, short(u.user_id)), h('code', { text: u.client_user_id }), time(u.created_on),
          (u.connected_sources || []).map(function (c) { return c.provider.slug; }).join(', ') || '-']);
      }), 'Users'));
  });
};

function ecgSvg(summary, samples) {
  var W = 900, H = 180, n = Math.min(samples.length, 5 * (summary.sampling_frequency_hz || 512));
  var pts = [], min = -0.6, max = 1.4;
  var step = Math.max(1, Math.floor(n / 1800));
  for (var i = 0; i < n; i += step) {
    var v = samples[i].value;
    pts.push((i / n * W).toFixed(1) + ',' + (H - (v - min) / (max - min) * H).toFixed(1));
  }
  var label = 'ECG lead I, first ' + (n / (summary.sampling_frequency_hz || 512)).toFixed(0) + ' s of the session of ' + time(summary.session_start) +
    ': ' + summary.classification + ', mean heart rate ' + summary.heart_rate_mean + ' bpm';
  return svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-labelledby': 'ecg-title ecg-desc', class: 'ecg', width: '100%' },
    svgEl('title', { id: 'ecg-title' }, document.createTextNode('Electrocardiogram')),
    svgEl('desc', { id: 'ecg-desc' }, document.createTextNode(label)),
    svgEl('polyline', { points: pts.join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': '1.2' }));
}

VIEWS.user = function (parts, clock) {
  var id = parts[0];
  var from = day(clock.now, -30), to = day(clock.now);
  return Promise.all([
    teamApi('GET', '/v2/user/' + id),
    teamApi('GET', '/v2/user/providers/' + id),
    teamApi('GET', '/v2/introspect/historical_pull' + qs({ user_id: id })).catch(function () { return { data: [] }; }),
    teamApi('GET', '/v2/summary/electrocardiogram/' + id + qs({ start_date: from, end_date: to })).catch(function () { return { electrocardiogram: [] }; }),
    teamApi('GET', '/v2/summary/sleep/' + id + qs({ start_date: day(clock.now, -7), end_date: to })).catch(function () { return { sleep: [] }; }),
    teamApi('GET', '/v2/summary/activity/' + id + qs({ start_date: day(clock.now, -7), end_date: to })).catch(function () { return { activity: [] }; }),
  ]).then(function (r) {
    var user = r[0], providers = r[1].providers || [], pulls = (r[2].data || [])[0], ecgs = r[3].electrocardiogram || [];
    var pullRows = [];
    if (pulls) for (var p in pulls.provider) for (var res in pulls.provider[p].pulled) {
      var x = pulls.provider[p].pulled[res];
      pullRows.push(row([p, res, h('span', { class: 'status ' + (x.status === 'success' ? 's2' : x.status === 'failure' ? 's5' : 's4'), text: x.status }), time(x.range_start) + ' to ' + time(x.range_end), x.error_details || '-']));
    }
    var last = ecgs[ecgs.length - 1];
    var ecg = last ? teamApi('GET', '/v2/timeseries/' + id + '/electrocardiogram_voltage' + qs({ start_date: last.session_start, end_date: last.session_end })).then(function (samples) {
      return h('figure', null, ecgSvg(last, samples), h('figcaption', null, 'Session of ' + time(last.session_start) + ': ',
        h('strong', { text: last.classification }), ', mean heart rate ', h('strong', { text: last.heart_rate_mean + ' bpm' }),
        ' (' + last.source_provider + ', ' + last.voltage_sample_count + ' samples at ' + last.sampling_frequency_hz + ' Hz)'));
    }) : Promise.resolve(h('p', { text: 'No ECG session in the last 30 days.' }));
    return ecg.then(function (figure) {
      return section('User ' + user.client_user_id,
        link('#users', 'Back to users'),
        h('dl', { class: 'facts' }, h('dt', { text: 'User id' }), h('dd', null, h('code', { text: user.user_id })),
          h('dt', { text: 'Created' }), h('dd', { text: time(user.created_on) })),
        table(['Provider', 'Status', 'Connected', 'Error'], providers.map(function (c) {
          return row([c.slug, h('span', { class: 'status ' + (c.status === 'connected' ? 's2' : 's5'), text: c.status }), time(c.created_on), c.error_details ? JSON.stringify(c.error_details) : '-']);
        }), 'Connections'),
        table(['Provider', 'Resource', 'Pull status', 'Range', 'Error'], pullRows, 'Historical pulls'),
        h('h3', { text: 'Electrocardiogram' }), figure,
        table(['Day', 'Kind', 'Values'], (r[4].sleep || []).map(function (s) {
          return row([day(s.bedtime_start || s.date || s.calendar_date || ''), 'sleep', (Math.round((s.total || s.duration || 0) / 360) / 10) + ' h asleep, score ' + (s.score === undefined ? '-' : s.score)]);
        }).concat((r[5].activity || []).map(function (a) {
          return row([String(a.calendar_date || a.date || '').slice(0, 10), 'activity', (a.steps === undefined ? '-' : a.steps) + ' steps, ' + Math.round(a.calories_total || 0) + ' kcal']);
        })), 'Recent summaries (7 days)'));
    });
  });
};

VIEWS.orders = function (parts) {
  if (parts[0]) return VIEWS.order(parts);
  return teamApi('GET', '/v3/orders?size=100').then(function (page) {
    return section('Lab orders of ' + teamOf().name + ' / ' + S.env,
      table(['Order', 'Patient', 'Lab test', 'Method', 'Status', 'Updated'], page.orders.map(function (o) {
        return row([link('#orders/' + o.id, short(o.id)), o.patient_details.first_name + ' ' + o.patient_details.last_name, o.lab_test.name,
          o.lab_test.method, h('span', { class: 'status', text: o.last_event ? o.last_event.status : o.status }), time(o.updated_at)]);
      }), 'Lab orders (the 100 most recent)'));
  });
};

function pdfButton(path, label) {
  return button(label, function () {
    return teamApi('GET', path).then(function (blob) { window.open(URL.createObjectURL(blob), '_blank'); });
  });
}

VIEWS.order = function (parts) {
  var id = parts[0];
  return teamApi('GET', '/v3/order/' + id).then(function (o) {
    var method = o.lab_test.method;
    var kind = method === 'at_home_phlebotomy' ? 'phlebotomy' : method === 'walk_in_test' ? 'psc' : null;
    var seen = (o.events || []).map(function (e) { return e.status; }).join(' ');
    // Asked only when they can exist (a 404 would be an error in the browser's console).
    var hasAppointment = kind && /appointment_scheduled|appointment_pending|draw_completed|completed/.test(seen);
    var hasResult = /partial_results|completed|corrected/.test(seen);
    return Promise.all([
      hasAppointment ? teamApi('GET', '/v3/order/' + id + '/' + kind + '/appointment').catch(function () { return null; }) : null,
      hasResult ? teamApi('GET', '/v3/order/' + id + '/result').catch(function () { return null; }) : null,
    ]).then(function (r) {
      var appt = r[0], result = r[1];
      return section('Order ' + short(o.id),
        link('#orders', 'Back to orders'),
        h('dl', { class: 'facts' },
          [['Order id', o.id], ['Status', o.status], ['Low-level status', o.last_event ? o.last_event.status : '-'], ['Lab test', o.lab_test.name + ' (' + method + ')'],
           ['Patient', o.patient_details.first_name + ' ' + o.patient_details.last_name], ['User', o.user_id]]
            .map(function (p) { return [h('dt', { text: p[0] }), h('dd', { id: p[0] === 'Low-level status' ? 'order-status' : null, text: p[1] })]; })),
        h('p', null, button('Move on (POST /v3/order/{id}/test)', function () { return teamApi('POST', '/v3/order/' + id + '/test', {}); })),
        h('h3', { text: 'Status timeline' }),
        h('ol', { class: 'timeline', 'aria-label': 'Status timeline' }, (o.events || []).map(function (e) {
          return h('li', null, h('time', { datetime: e.created_at, text: time(e.created_at) }), ' ', h('code', { text: e.status }), e.status_detail ? ' (' + e.status_detail + ')' : '');
        })),
        h('h3', { text: 'Appointment' }), appt ? pre(indented(appt), 'Appointment') : h('p', { text: 'None.' }),
        h('h3', { text: 'Results' }),
        result ? h('div', null, h('p', { text: (result.results || []).length + ' results' }), pdfButton('/v3/order/' + id + '/result/pdf', 'Open the result PDF'),
          table(['Marker', 'Value', 'Unit', 'Range', 'Flag'], (result.results || []).slice(0, 50).map(function (m) {
            return row([m.name, String(m.result === undefined ? m.value : m.result), m.unit || '', (m.min_range_value === undefined ? '' : m.min_range_value + ' to ' + m.max_range_value), m.interpretation || '']);
          }), 'Results')) : h('p', { text: 'No results yet.' }));
    });
  });
};

VIEWS.webhooks = function (parts) {
  if (parts[0]) return VIEWS.message(parts);
  var t = teamOf();
  var scope = { team_id: t.team_id, environment: S.env };
  return Promise.all([
    api('GET', '/_sandbox/webhooks/endpoints' + qs(scope)),
    api('GET', '/_sandbox/webhooks/messages' + qs(Object.assign({ limit: 1000 }, scope))),
    api('GET', '/_sandbox/pipelines/streams').catch(function () { return { streams: [] }; }),
  ]).then(function (r) {
    // Endpoints pointing at the sandbox's own test receivers: what each received.
    var names = r[0].endpoints.map(function (e) { var m = /\/_sandbox\/receiver\/([^/?#]+)/.exec(e.url); return m && m[1]; }).filter(Boolean);
    return Promise.all(names.map(function (n) { return api('GET', '/_sandbox/receiver/' + n).catch(function () { return null; }); })).then(function (receivers) {
      return webhooksSection(t, r, receivers.filter(Boolean));
    });
  });
};

function webhooksSection(t, r, receivers) {
    var messages = r[1].messages.slice(-100).reverse();
    return section('Webhooks of ' + t.name + ' / ' + S.env,
      table(['Endpoint', 'URL', 'Filter', 'Disabled', ''], r[0].endpoints.map(function (e) {
        return row([h('code', { text: e.id }), h('code', { text: e.url }), (e.filter_types || ['everything']).join(', '), e.disabled ? 'yes' : 'no',
          button('Recover failed', function () { return api('POST', '/_sandbox/webhooks/endpoints/' + e.id + '/recover', { since: e.created_at }); }, { 'aria-label': 'Recover failed messages of ' + e.id })]);
      }), 'Endpoints'),
      table(['Message', 'Created', 'Event type', 'Destinations'], messages.map(function (m) {
        return row([link('#webhooks/' + m.id, m.id), time(m.created_at), h('code', { text: m.event_type }),
          m.destinations.map(function (d) { return (d.endpoint_id || '') + ': ' + (d.status || ''); }).join('; ')]);
      }), 'Messages (newest first)'),
      table(['Receiver', 'Deliveries', 'Last', 'Signature', 'Answered'], receivers.map(function (x) {
        var last = x.deliveries[x.deliveries.length - 1];
        return row([h('code', { text: x.name }), String(x.count), last ? time(last.received_at) + ' ' + (last.event_type || '') : '-',
          last ? (last.verified === null ? 'not checked' : last.verified ? 'verified' : 'INVALID') : '-', last ? String(last.answered_status) : '-']);
      }), 'Test receivers (/_sandbox/receiver/:name)'),
      table(['Stream', 'Records'], (r[2].streams || []).map(function (s) { return row([s.name, String(s.count === undefined ? s.records : s.count)]); }), 'Pipeline streams'));
}

VIEWS.message = function (parts) {
  return api('GET', '/_sandbox/webhooks/messages/' + parts[0]).then(function (m) {
    var endpoints = m.destinations.map(function (d) { return d.endpoint_id; }).filter(Boolean);
    return section('Message ' + m.id,
      link('#webhooks', 'Back to webhooks'),
      h('p', null, h('code', { text: m.event_type }), ' at ' + time(m.created_at) + ' ',
        endpoints.map(function (ep) { return button('Resend to ' + ep, function () { return api('POST', '/_sandbox/webhooks/messages/' + m.id + '/endpoints/' + ep + '/resend'); }); })),
      table(['#', 'Trigger', 'Status', 'Sent', 'Latency', 'Next retry', 'Request and answer'], m.attempts.map(function (a) {
        return row([String(a.attempt_number), a.trigger, h('span', { class: 'status ' + (a.status === 'success' ? 's2' : 's5'), text: a.status }), time(a.created_at),
          a.latency_ms === null ? '-' : Math.round(a.latency_ms) + ' ms', time(a.next_attempt_at) || '-',
          h('details', null, h('summary', { text: a.response ? 'answer ' + (a.response.status || '') : a.error || 'details' }), pre(indented({ request: a.request, response: a.response, error: a.error }), 'Attempt'))]);
      }), 'Attempts'),
      h('h3', { text: 'Payload' }), pre(indented(m.payload), 'Payload'));
  });
};
`;
