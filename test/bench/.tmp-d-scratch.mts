import { ScratchCopy } from '/work/main/src/core/tools/commandScratch.js';
import { RunSnapshot } from '/work/main/src/core/workspace/runSnapshot.js';
const root = '/tmp/massgen-bench-workspace-100000';
for (let i = 0; i < 2; i++) {
	const copy = new ScratchCopy({ workspaceRoot: root, label: 'timing', dependencies: 'mount' });
	const t = performance.now();
	await copy.prepare(new Map(), new RunSnapshot(root));
	console.log('copy ms', Math.round(performance.now() - t));
	await copy.dispose();
}
