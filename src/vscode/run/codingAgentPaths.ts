/**
 * The editor's `massgen.codingAgents.*Path` settings as the variables the coding-agent adapters
 * read (`cliPathVariables`). Machine scope: only the user's own value counts, so a cloned
 * repository's settings can never point a run at an executable of its choosing.
 */
import { cliPathVariables } from '../../core/config/cliPathVariables.js';
import { readCodingAgentPath } from '../common/settings.js';

const settings = { claude_code: 'claudeCodePath', codex: 'codexPath' } as const;

/** The variables to add to the run's environment (none for blank settings). */
export function codingAgentPathEnv(): Record<string, string> {
	const env: Record<string, string> = {};
	for (const type of Object.keys(settings) as (keyof typeof settings)[]) {
		const value = readCodingAgentPath(settings[type]);
		if (value) env[cliPathVariables[type]] = value;
	}
	return env;
}
