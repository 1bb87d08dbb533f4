import type { ToolPolicy } from '../config/policy.js';
import { HubError } from '../errors.js';
import type { Surface } from '../run-meta.js';
import type { ToolDefinition } from '../shared/tool-def.js';

/** The operator's switches, before anything else of a run: the runtime, the tool, the tool's runtime surface. */
export function checkSwitches(
  runtimeEnabled: boolean,
  def: ToolDefinition,
  policy: ToolPolicy,
  surface: Surface,
): void {
  if (!runtimeEnabled) {
    throw new HubError('RUNTIME_DISABLED', 'the tool runtime is switched off by the operator');
  }
  if (!policy.enabled) throw new HubError('TOOL_DISABLED', `${def.id} is switched off by the operator`);
  // A batch item is a generic runtime call: the operator's switch closes both doors.
  if ((surface === 'runtime' || surface === 'batch') && !policy.runtimeSurface) {
    const paths = def.endpoints.map((e) => `${e.methods.join('/')} ${e.path}`).join(', ');
    throw new HubError('TOOL_WRONG_SURFACE', `${def.id} is not callable on /api/tools/run/; use ${paths}`);
  }
}
