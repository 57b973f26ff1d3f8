import type { Workbench } from '../workbench';

/** A Playwright scenario: gets a fresh workbench window with the extension loaded from the repo. */
export interface Scenario {
	readonly name: string;
	run(workbench: Workbench): Promise<void>;
}
