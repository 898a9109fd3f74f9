/**
 * The scripted on-call agent of the incident demo: a policy that decides each turn from the conversation it
 * receives, the way a model would, so the offline demo takes the same path a real run takes. It offers no
 * shortcut a model would not find: it reads the alert, trips over the service id format, pages through
 * staging deploys until it notices the `env` field, tries the one-call rollback, and works around it when it
 * is down. If a distilled tool is offered it calls it; after a nudge it proposes one; asked as a distiller
 * (forced `propose_distilled_tool`), it writes one from the run in the prompt.
 */

import { PROPOSE_TOOL_NAME } from "../../core/index.ts";
import {
  type Conversation,
  type ModelRequest,
  okValue,
  readConversation,
  requires,
  type ScriptedTurn,
  type Step,
  schemaInPrompt,
} from "../shared/scripted-model.ts";

/** The name the scripted agent gives its distilled tool. */
export const TOOL_NAME = "mitigate_upstream_deploy";

const BASE_TOOLS = new Set([
  "alerts_get",
  "alerts_annotate",
  "services_get",
  "deploys_list",
  "deploys_get",
  "deploys_create",
  "deploys_rollback",
]);

const HOUR_MS = 3_600_000;

interface Alert {
  alert_id: string;
  service: string;
  env: string;
  signal: string;
  fired_at: string;
}
interface Deploy {
  seq: number;
  service: string;
  version: string;
  env: string;
  deployed_at: string;
}

// The texts below are built exactly as the distilled tool's code builds them, so replay matches the run.
const redeployNote = (alertId: string, bad: Deploy, previousVersion: string, newId: string) =>
  `Mitigated ${alertId}: ${bad.service}@${bad.seq} (${bad.version}) of ${bad.service} was bad; redeployed ${previousVersion} as ${newId}`;
const rollbackNote = (alertId: string, bad: Deploy, restoredVersion: string) =>
  `Mitigated ${alertId}: rolled back ${bad.service}@${bad.seq} (${bad.version}) of ${bad.service} to ${restoredVersion}`;
const rollbackReason = (alertId: string, alert: Alert, bad: Deploy) =>
  `${alertId}: ${alert.signal}, right after ${bad.service}@${bad.seq}`;

/** The distilled tool's source for the path that worked: redeploying the previous build, or the rollback. */
export function incidentToolCode(options: {
  via: "redeploy" | "rollback";
  reason: boolean;
  name?: string;
  /**
   * The wording of the note, when it is not the path's own: a tool that may write passes only text its
   * source run passed, so a rollback rebuilt from a run that redeployed words its note as that run did.
   */
  note?: "redeploy";
}): string {
  const name = options.name ?? TOOL_NAME;
  const fix =
    options.via === "rollback"
      ? `    const rollback = await call("deploys_rollback", { deploy_id: bad${options.reason ? ", reason: `${alert_id}: ${alert.signal}, right after ${bad}`" : ""} });
    const note = ${
      options.note === "redeploy"
        ? `\`Mitigated \${alert_id}: \${bad} (\${culprit.bad.version}) of \${culprit.bad.service} was bad; redeployed \${rollback.version} as \${rollback.restored}\``
        : `\`Mitigated \${alert_id}: rolled back \${bad} (\${culprit.bad.version}) of \${culprit.bad.service} to \${rollback.version}\``
    };
    await call("alerts_annotate", { alert_id, note });
    return {
      status: rollback.status === "rolled_back" ? "mitigated" : "rollback_failed",
      alert_id,
      bad_deploy: bad,
      action: "rolled back",
      restored: rollback.restored,
    };`
      : `    const previous = await call("deploys_get", {
      deploy_id: \`\${culprit.previous.service}@\${culprit.previous.seq}\`,
    });
    const redeploy = await call("deploys_create", { service_id: culprit.upstream, build: previous.build });
    const rollout = await call("deploys_get", { deploy_id: redeploy.deploy_id });
    const note = \`Mitigated \${alert_id}: \${bad} (\${culprit.bad.version}) of \${culprit.bad.service} was bad; redeployed \${previous.version} as \${rollout.deploy_id}\`;
    await call("alerts_annotate", { alert_id, note });
    return {
      status: rollout.status === "succeeded" ? "mitigated" : "redeploy_pending",
      alert_id,
      bad_deploy: bad,
      action: "redeployed the previous build",
      deploy_id: rollout.deploy_id,
    };`;
  const how =
    options.via === "rollback"
      ? "rolls that deploy back"
      : "reverts it by redeploying the previous build (the rollback service was down)";
  return `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "${name}",
  description:
    "Mitigate an alert caused by a bad deploy of an upstream dependency: finds the upstream whose newest prod deploy landed in the hour before the alert, ${how}, and notes it on the alert.",
  inputSchema: {
    type: "object",
    properties: { alert_id: { type: "string", description: "The alert, e.g. A-1042." } },
    required: ["alert_id"],
  },
  async run({ alert_id }) {
    const alert = await call("alerts_get", { alert_id });
    // Service ids are derived from the alert: svc-<env>-<name>.
    const service = await call("services_get", { service_id: \`svc-\${alert.env}-\${alert.service}\` });
    const firedAt = Date.parse(alert.fired_at);
    let culprit = null;
    for (const upstream of service.upstreams) {
      // Without env (not in the docs) the list buries the alert's env's deploys under pages of other ones.
      const { deploys } = await call("deploys_list", { service_id: upstream, env: alert.env });
      const age = firedAt - Date.parse(deploys[0].deployed_at);
      if (culprit === null && age >= 0 && age <= ${HOUR_MS}) {
        culprit = { upstream, bad: deploys[0], previous: deploys[1] };
      }
    }
    if (culprit === null) return { status: "no_recent_upstream_deploy", alert_id };
    // Deploy ids are derived too: <service>@<seq>.
    const bad = \`\${culprit.bad.service}@\${culprit.bad.seq}\`;
${fix}
  },
  check: (result) => result.status === "mitigated",
});
`;
}

/** The policy the scripted model plays for the incident demo. */
export function incidentPolicy(request: ModelRequest): ScriptedTurn {
  if (request.tool_choice?.name === PROPOSE_TOOL_NAME) return distillerTurn(request);
  const c = readConversation(request);
  const alertId = /A-\d+/.exec(c.task)?.[0] ?? "A-1042";
  const last = c.steps.at(-1);

  if (request.messages.length > 1 && c.lastUserText?.includes(PROPOSE_TOOL_NAME))
    return proposeTurn(c, alertId);
  if (last?.name === PROPOSE_TOOL_NAME) {
    const verdict = (last.result ?? "").split("\n")[0] ?? "";
    return { text: `Proposal answered: ${verdict}. Done.` };
  }

  const distilled = [...c.offered.keys()].find((n) => !BASE_TOOLS.has(n) && n !== PROPOSE_TOOL_NAME);
  const distilledStep = c.steps.find((s) => !BASE_TOOLS.has(s.name) && s.name !== PROPOSE_TOOL_NAME);
  if (distilled && !distilledStep) {
    return {
      text: `${distilled} fits this alert exactly; calling it.`,
      calls: [{ name: distilled, input: { alert_id: alertId } }],
    };
  }
  if (distilledStep && !distilledStep.isError && c.steps.at(-1) === distilledStep) {
    return { text: `Done with one call of ${distilledStep.name}: ${distilledStep.result}` };
  }
  // No distilled tool, or it failed: work it out with the base tools.
  return discover(c, alertId);
}

function call(text: string, name: string, input: Record<string, unknown>): ScriptedTurn {
  return { text, calls: [{ name, input }] };
}

function lastOk<T>(steps: Step[], pred: (s: Step) => boolean): T | null {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (pred(s) && !s.isError) {
      const v = okValue<T>(s);
      if (v !== null) return v;
    }
  }
  return null;
}

function discover(c: Conversation, alertId: string): ScriptedTurn {
  const steps = c.steps.filter((s) => BASE_TOOLS.has(s.name));
  const alert = lastOk<Alert>(steps, (s) => s.name === "alerts_get");
  if (!alert) return call(`Start with the alert ${alertId}.`, "alerts_get", { alert_id: alertId });

  const svcSteps = steps.filter((s) => s.name === "services_get");
  const service = lastOk<{ upstreams: string[] }>(svcSteps, () => true);
  if (!service) {
    if (svcSteps.length === 0)
      return call(
        `${alert.service} is alerting (${alert.signal}). Looking it up in the service catalog.`,
        "services_get",
        { service_id: alert.service },
      );
    if (svcSteps.length === 1 && /svc-prod-/.test(svcSteps[0]!.result ?? ""))
      return call(
        "The catalog wants ids like svc-prod-ledger: deriving it from the alert's env and service.",
        "services_get",
        { service_id: `svc-${alert.env}-${alert.service}` },
      );
    return { text: `I cannot find ${alert.service} in the service catalog; escalating to a human.` };
  }

  const lists = steps.filter((s) => s.name === "deploys_list" && !s.isError);
  const prodList = (up: string) =>
    okValue<{ deploys: Deploy[] }>(
      lists.find((s) => s.input["service_id"] === up && s.input["env"] === "prod"),
    );
  if (!lists.some((s) => s.input["env"] === "prod")) {
    const first = service.upstreams[0];
    if (!first) return { text: `${alert.service} has no upstreams; the cause is elsewhere. Escalating.` };
    const pages = lists.filter((s) => s.input["service_id"] === first && s.input["env"] === undefined);
    const seen = pages.flatMap((p) => okValue<{ deploys: Deploy[] }>(p)?.deploys ?? []);
    const next = okValue<{ next_page: number | null }>(pages.at(-1))?.next_page;
    if (pages.length === 0)
      return call(
        `Upstreams: ${service.upstreams.join(", ")}. Did any of them deploy just before ${alert.fired_at}?`,
        "deploys_list",
        { service_id: first },
      );
    if (!seen.some((d) => d.env === "prod") && next)
      return call(`Page ${next - 1} is all staging deploys; next page.`, "deploys_list", {
        service_id: first,
        page: next,
      });
    return call(
      "Prod deploys are buried under staging ones, and every deploy has an env field: trying env as a filter.",
      "deploys_list",
      { service_id: first, env: "prod" },
    );
  }
  for (const up of service.upstreams) {
    if (!prodList(up))
      return call(`The env filter works. Prod deploys of ${up}:`, "deploys_list", {
        service_id: up,
        env: "prod",
      });
  }

  const firedAt = Date.parse(alert.fired_at);
  let culprit: { upstream: string; bad: Deploy; previous: Deploy | undefined } | null = null;
  for (const up of service.upstreams) {
    const deploys = prodList(up)?.deploys ?? [];
    const newest = deploys[0];
    const age = newest ? firedAt - Date.parse(newest.deployed_at) : -1;
    if (!culprit && newest && age >= 0 && age <= HOUR_MS)
      culprit = { upstream: up, bad: newest, previous: deploys[1] };
  }
  if (!culprit)
    return { text: "No upstream deployed to prod in the hour before the alert. Escalating to a human." };
  const { bad } = culprit;
  const badId = `${bad.service}@${bad.seq}`;

  const gets = steps.filter((s) => s.name === "deploys_get");
  const got = (id: string) =>
    lastOk<{ build: string; version: string }>(gets, (s) => s.input["deploy_id"] === id);
  if (!got(badId)) {
    const lastGet = gets.at(-1);
    if (!lastGet)
      return call(
        `${bad.service} shipped ${bad.version} to prod ${Math.round((firedAt - Date.parse(bad.deployed_at)) / 60000)} minutes before the alert. Inspecting deploy ${bad.seq}.`,
        "deploys_get",
        { deploy_id: String(bad.seq) },
      );
    if (lastGet.isError && /<service>@<seq>/.test(lastGet.result ?? ""))
      return call(`Deploy ids are <service>@<seq>: ${badId}.`, "deploys_get", { deploy_id: badId });
  }

  const annotated = steps.some((s) => s.name === "alerts_annotate" && !s.isError);
  const rollbacks = steps.filter((s) => s.name === "deploys_rollback");
  const rolledBack = lastOk<{ version: string }>(rollbacks, () => true);
  const needsReason = requires(c.offered.get("deploys_rollback")?.input_schema, "reason");
  const lastRollback = rollbacks.at(-1);
  if (!rolledBack) {
    const reason = needsReason || /'reason'/.test(lastRollback?.result ?? "");
    const input = { deploy_id: badId, ...(reason ? { reason: rollbackReason(alertId, alert, bad) } : {}) };
    if (!lastRollback) return call(`${badId} is the cause. Rolling it back.`, "deploys_rollback", input);
    if (rollbacks.length < 2 && /^Error: (503|400)/.test(lastRollback.result ?? ""))
      return call("The rollback failed; trying once more.", "deploys_rollback", input);
  }
  if (rolledBack) {
    if (!annotated)
      return call("Rolled back. Noting it on the alert.", "alerts_annotate", {
        alert_id: alertId,
        note: rollbackNote(alertId, bad, rolledBack.version),
      });
    return { text: `Mitigated ${alertId}: rolled back ${badId}; the alert has a note.` };
  }

  // The rollback service is down: redeploy the previous build by hand.
  const previous = culprit.previous;
  if (!previous) return { text: `${badId} has no earlier prod deploy to go back to. Escalating.` };
  const previousId = `${previous.service}@${previous.seq}`;
  const prev = got(previousId);
  if (!prev)
    return call(
      `The rollback service is down (503). Doing it by hand: the previous prod deploy ${previousId} tells me its build.`,
      "deploys_get",
      { deploy_id: previousId },
    );
  const created = lastOk<{ deploy_id: string }>(steps, (s) => s.name === "deploys_create");
  if (!created)
    return call(`Redeploying ${prev.version} (${prev.build}).`, "deploys_create", {
      service_id: culprit.upstream,
      build: prev.build,
    });
  const rollout = got(created.deploy_id);
  if (!rollout) return call("Checking the rollout.", "deploys_get", { deploy_id: created.deploy_id });
  if (!annotated)
    return call("Rolled out. Noting it on the alert.", "alerts_annotate", {
      alert_id: alertId,
      note: redeployNote(alertId, bad, prev.version, created.deploy_id),
    });
  return {
    text: `Mitigated ${alertId}: ${badId} reverted by redeploying ${prev.version}; the alert has a note.`,
  };
}

function proposeTurn(c: Conversation, alertId: string): ScriptedTurn {
  const nudge = c.lastUserText ?? "";
  const name = /under the same name '([a-z0-9_]+)'/.exec(nudge)?.[1] ?? TOOL_NAME;
  const rollback = c.steps.find((s) => s.name === "deploys_rollback" && !s.isError);
  const code = incidentToolCode({
    name,
    via: rollback ? "rollback" : "redeploy",
    reason: rollback ? "reason" in rollback.input : false,
  });
  return {
    text: `Worth a tool: the path is always alert → service → upstream prod deploys → revert → note. Proposing ${name}.`,
    calls: [{ name: PROPOSE_TOOL_NAME, input: { code, test_inputs: [{ alert_id: alertId }] } }],
  };
}

/** Asked as a distiller: the request is the library's prompt about one recorded run. */
function distillerTurn(request: ModelRequest): ScriptedTurn {
  const first = request.messages[0];
  const prompt =
    typeof first?.content === "string"
      ? first.content
      : (first?.content ?? []).map((b) => b.text ?? "").join("\n");
  const task = prompt.split("## Task of the run")[1] ?? prompt;
  const alertId = /A-\d+/.exec(task)?.[0] ?? "A-1042";
  const name = /## The version being replaced: ([a-z0-9_]+) v\d+/.exec(prompt)?.[1] ?? TOOL_NAME;
  const rollbackWorks =
    /'deploys_rollback' failed on every call/.test(prompt) ||
    /deploys_rollback [^\n]*\n\s*→ ok:/.test(prompt);
  const reason = requires(schemaInPrompt(prompt, "deploys_rollback"), "reason");
  // The run's own note decides the wording: the tool may only write text the run wrote.
  const redeployed = /was bad; redeployed/.test(prompt);
  const code = incidentToolCode({
    name,
    via: rollbackWorks ? "rollback" : "redeploy",
    reason,
    ...(rollbackWorks && redeployed ? { note: "redeploy" as const } : {}),
  });
  return {
    text: rollbackWorks
      ? `deploys_rollback is back: one call replaces the three of the redeploy path. Rebuilding ${name}.`
      : `Distilling the run into ${name}.`,
    calls: [{ name: PROPOSE_TOOL_NAME, input: { code, test_inputs: [{ alert_id: alertId }] } }],
  };
}
