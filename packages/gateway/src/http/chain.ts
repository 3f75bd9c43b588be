import type { GatewayRequest } from '../policies/policy.js';
import { matchFlow } from '../router/compile.js';
import type { CompiledApi, CompiledFlow, CompiledStep } from '../router/compiled.js';

/** The steps of one request, sorted by the stages they take part in. */
export interface RequestChain {
  list: CompiledStep[];
  content: CompiledStep[];
  response: CompiledStep[];
  bufferResponse: boolean;
  /** Whether a step may have put a line break into a header (`PolicyDefinition.writesNoInputIntoHeaders`). */
  checkHeaders: boolean;
  mappedPath: string | undefined;
  /** The policy path that matched (the API's flow, else the plan's): the call's route in traces. */
  flowPath: string | undefined;
}

/** The steps for this request: the plan's flow, then the API's flow, for the request's method. */
export function chain(api: CompiledApi, planFlows: CompiledFlow[], request: GatewayRequest): RequestChain {
  const list: CompiledStep[] = [];
  const planFlow = planFlows.length > 0 ? matchFlow(planFlows, request.pathInfo) : undefined;
  if (planFlow) addSteps(list, planFlow.steps, request.method);
  const apiFlow = api.flows.length > 0 ? matchFlow(api.flows, request.pathInfo) : undefined;
  if (apiFlow) addSteps(list, apiFlow.steps, request.method);
  const content: CompiledStep[] = [];
  const response: CompiledStep[] = [];
  let bufferResponse = false;
  let checkHeaders = false;
  for (const step of list) {
    if (!step.policy.writesNoInputIntoHeaders) checkHeaders = true;
    if (step.policy.onRequestContent) content.push(step);
    if (step.policy.onResponse || step.policy.onResponseContent) response.push(step);
    if (step.policy.onResponseContent) bufferResponse = true;
  }
  let mappedPath: string | undefined;
  if (api.pathMappings.length > 0) {
    const path = request.pathInfo || '/';
    mappedPath = api.pathMappings.find((m) => m.pattern.test(path))?.path;
  }
  return {
    list,
    content,
    response,
    bufferResponse,
    checkHeaders,
    mappedPath,
    flowPath: apiFlow?.path ?? planFlow?.path,
  };
}

function addSteps(list: CompiledStep[], steps: CompiledStep[], method: string): void {
  for (const step of steps) if (!step.methods || step.methods.has(method)) list.push(step);
}
