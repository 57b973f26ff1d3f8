const keyShapes = /\b(sk-(?:ant-)?[A-Za-z0-9_\-*]{8,}|xai-[A-Za-z0-9_\-*]{8,}|gsk_[A-Za-z0-9*]{8,}|AIza[A-Za-z0-9_\-*]{8,})/g;

/** Removes the key (and anything shaped like a key) from text that may reach logs or the UI. */
export function redact(text: string, apiKey: string | undefined): string {
	let out = text;
	if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
	return out.replace(keyShapes, '[redacted]');
}
