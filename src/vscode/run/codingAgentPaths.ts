/**
 * The editor's `massgen.codingAgents.*Path` settings as the host's coding-agent CLIs
 * (`HostPaths.codingAgents`). Machine scope: only the user's own value counts, so a cloned
 * repository's settings can never point a run at an executable of its choosing.
 */
import { codingAgentPathsFromEnv, type CodingAgentPaths } from '../../core/util/cliPathVariables.js';
import { readCodingAgentPath } from '../common/settings.js';

const settings = { claude_code: 'claudeCodePath', codex: 'codexPath' } as const;

/** Each non-blank setting, else the editor environment's variable (`cliPathVariables`). */
export function codingAgentPaths(env: Readonly<Record<string, string | undefined>>): CodingAgentPaths {
	const paths: { -readonly [type in keyof CodingAgentPaths]: string } = { ...codingAgentPathsFromEnv(env) };
	for (const type of Object.keys(settings) as (keyof typeof settings)[]) {
		const value = readCodingAgentPath(settings[type]);
		if (value) paths[type] = value;
	}
	return paths;
}
