/** Teams, environments and keys (masked; Copy puts the whole key on the clipboard). */
import { session } from './api.js';
import { code, copyButton, facts, link, row, section, table } from './dom.js';
import { mask } from './format.js';
import type { View } from './view.js';

export const teamsView: View = async () => {
  const c = session.creds;
  if (!c) return section('Teams and keys', 'No credentials.');
  return section(
    'Teams and keys',
    facts([
      ['Base URL', code(c.base_url)],
      ['Management URL', code(c.management_url)],
      ['Org id', code(c.org_id)],
      ['Management key', [code(mask(c.management_key)), ' ', copyButton(c.management_key, 'management key')]],
      ['Documentation', link('/docs', '/docs (Swagger UI)')],
    ]),
    table(
      ['Team', 'Team id', 'Region', 'Environment', 'API key', ''],
      c.teams.flatMap((t) =>
        (['sandbox', 'production'] as const).map((env) =>
          row([
            t.name,
            code(t.team_id),
            t.region ?? '-',
            env,
            code(mask(t.api_keys[env])),
            copyButton(t.api_keys[env], `${t.name} ${env} key`),
          ]),
        ),
      ),
      'Teams, environments and API keys (masked; Copy puts the whole key on the clipboard)',
    ),
  );
};
