/** True when an OpenAI-compatible server answers `GET <baseUrl>/models` within the time limit. */
export async function probeLocalServer(baseUrl: string, timeoutMs = 500): Promise<boolean> {
	try {
		const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
			signal: AbortSignal.timeout(timeoutMs),
		});
		return response.ok;
	} catch {
		return false;
	}
}
