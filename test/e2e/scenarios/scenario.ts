import type { Workbench } from '../workbench';

/** A Playwright scenario: gets a fresh workbench window with the extension loaded from the repo. */
export interface Scenario {
	readonly name: string;
	/** Adds files to the scenario's fresh workspace copy before the window opens. */
	prepareWorkspace?(folder: string): void;
	/** `folder`: the absolute path of the workspace the window shows. */
	run(workbench: Workbench, folder: string): Promise<void>;
}
