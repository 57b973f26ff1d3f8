/** Libuv requests in flight (file system, DNS, writes): the code is still working, not waiting on time. */
const inFlight = /Req|^WriteWrap$|^ShutdownWrap$/;

/** Turns of the event loop with nothing in flight before the code counts as idle. */
const quietTurns = 3;

/**
 * Resolves once promise chains, immediates and in-flight I/O have run out: what a test awaits before
 * asserting that something did NOT happen (instead of sleeping a fixed time), and what the manual
 * clock awaits before it moves time on.
 */
export async function settle(): Promise<void> {
	for (let quiet = 0; quiet < quietTurns;) {
		await new Promise((resolve) => setImmediate(resolve));
		const busy = process.getActiveResourcesInfo().some((name) => inFlight.test(name));
		quiet = busy ? 0 : quiet + 1;
	}
}
