import type { Phase, RunEventBody } from '../../../contract/runEvents.js';
import type { ProviderToolUse } from '../spec/model.js';

/** A provider-native tool use → its run event (the lane shows it like a tool call). */
export function providerToolEvent(agentId: string, phase: Phase, use: ProviderToolUse): RunEventBody {
	return {
		type: 'provider-tool',
		agentId,
		phase,
		callId: use.id,
		kind: use.kind,
		...(use.query === undefined ? {} : { query: use.query }),
		...(use.code === undefined ? {} : { code: use.code }),
		...(use.sources?.length ? { sources: use.sources.map(({ title, url }) => ({ title, url })) } : {}),
		...(use.output === undefined ? {} : { output: use.output }),
		isError: use.isError === true,
	};
}
