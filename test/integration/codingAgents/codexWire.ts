import type { SseEvent } from '../../servers/loopbackProvider.js';

/** A Responses stream whose one output is a freeform (custom) tool call, as Codex's `apply_patch` expects. */
export function customToolCall(callId: string, name: string, input: string, model: string): SseEvent[] {
	const events: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown>) =>
		events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
	const base = { id: `resp_${callId}`, object: 'response', created_at: 0, model };
	const item = { type: 'custom_tool_call', id: `ctc_${callId}`, call_id: callId, name, input };
	emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
	emit('response.output_item.added', {
		output_index: 0,
		item: { ...item, input: '', status: 'in_progress' },
	});
	emit('response.custom_tool_call_input.delta', { item_id: item.id, output_index: 0, delta: input });
	emit('response.custom_tool_call_input.done', { item_id: item.id, output_index: 0, input });
	emit('response.output_item.done', { output_index: 0, item: { ...item, status: 'completed' } });
	const usage = { input_tokens: 40, output_tokens: 9, total_tokens: 49 };
	emit('response.completed', { response: { ...base, status: 'completed', output: [item], usage } });
	return events;
}

/** A Responses stream whose one output is the API's own `local_shell_call` item (not a function call). */
export function localShellCall(callId: string, command: readonly string[], model: string): SseEvent[] {
	const events: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown>) =>
		events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
	const base = { id: `resp_${callId}`, object: 'response', created_at: 0, model };
	const item = {
		type: 'local_shell_call',
		id: `lsc_${callId}`,
		call_id: callId,
		status: 'completed',
		action: { type: 'exec', command, env: {} },
	};
	emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
	emit('response.output_item.added', { output_index: 0, item });
	emit('response.output_item.done', { output_index: 0, item });
	const usage = { input_tokens: 40, output_tokens: 9, total_tokens: 49 };
	emit('response.completed', { response: { ...base, status: 'completed', output: [item], usage } });
	return events;
}
