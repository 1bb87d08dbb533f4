import type { ToolPolicy } from '../config/policy.js';
import { HubError } from '../errors.js';
import type { Surface } from '../run-meta.js';
import type { ToolSpec } from '../shared/tool-def.js';

/**
 * The operator's switches, before anything else of a run: every run (RUNTIME_ENABLED and the
 * policy file's `runtimeEnabled`, public names kept), the tool, the tool on the generic runtime.
 */
export function checkSwitches(
  runsEnabled: boolean,
  def: ToolSpec,
  policy: ToolPolicy,
  surface: Surface,
): void {
  if (!runsEnabled) {
    throw new HubError('RUNTIME_DISABLED', 'every tool run is switched off by the operator');
  }
  if (!policy.enabled) throw new HubError('TOOL_DISABLED', `${def.id} is switched off by the operator`);
  // A batch item is a generic runtime call: the operator's switch closes both doors.
  if ((surface === 'runtime' || surface === 'batch' || surface === 'job') && !policy.runtimeSurface) {
    const paths = def.endpoints.map((e) => `${e.methods.join('/')} ${e.path}`).join(', ');
    throw new HubError('TOOL_WRONG_SURFACE', `${def.id} is not callable on /api/tools/run/; use ${paths}`);
  }
}
