/**
 * True when an OpenAI-compatible server answers `GET <baseUrl>/models` within the time limit: 2 s,
 * since a local server busy loading a model answers slowly (a closed port fails at once).
 */
export async function probeLocalServer(baseUrl: string, timeoutMs = 2_000): Promise<boolean> {
	try {
		const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
			signal: AbortSignal.timeout(timeoutMs),
		});
		return response.ok;
	} catch {
		return false;
	}
}
