/**
 * What the Team view and the team builder take from the run engine (`dist/engine.js`): they need
 * the config schema and the SDKs, which activation does not load.
 */
export { readTeamSnapshot } from './teamSnapshot.js';
export { editTeamConfigText } from '../../core/team/editTeamConfig.js';
export { draftAgentId, teamConfigYaml, writeTeamConfigFile } from '../../core/team/writeTeamConfig.js';
export { curatedModels, findLocalServers, listProviderModels } from '../../core/team/providerModels.js';
export { isWorkspaceFile } from '../../core/config/workspaceFile.js';
export { keyToHost } from '../../core/trust/trustItems.js';
export { loadConfigText } from '../../core/config/loadConfig.js';
export { resolveApiKey } from '../../core/config/apiKeys.js';
export { localServerUrl } from '../../core/config/defaultTeam.js';
