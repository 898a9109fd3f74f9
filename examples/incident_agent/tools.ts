/**
 * Fake incident tooling (no real services): alerts, a service catalog and a deploy system with the rules a
 * real one has and its docs leave out.
 *
 * - Service ids are `svc-<env>-<name>`; the alert only names the service.
 * - Deploy ids are `<service>@<seq>`; lists show `service` and `seq` but no id.
 * - `deploys_list` pages through every environment, staging first; `env: "prod"` filters, undocumented.
 * - `deploys_rollback` is the one-call fix; the `outage` switch takes it down (503), and the `schema_reason`
 *   switch makes it require a `reason` and say so in its advertised schema.
 *
 * Switches live in `.switches.json` next to this file (or where TOOLDISTILL_DEMO_STATE points), so the runner,
 * the CLI and the MCP server of claude_code/ all see the same world. Writes are kept in memory per process.
 */

import type { ToolDef } from "../../core/index.ts";
import { type IncidentSwitches, switches } from "./switches.ts";

interface Alert {
  alert_id: string;
  service: string;
  env: string;
  signal: string;
  fired_at: string;
  /** What caused it: never shown to the agent, used by `incidentMitigated`. */
  cause: { service: string; seq: number };
}

const ALERTS: Alert[] = [
  {
    alert_id: "A-1042",
    service: "checkout-api",
    env: "prod",
    signal: "HTTP 5xx rate 12.4% (threshold 2%)",
    fired_at: "2025-06-02T09:41:00Z",
    cause: { service: "payments-gateway", seq: 418 },
  },
  {
    alert_id: "A-1057",
    service: "search-web",
    env: "prod",
    signal: "p99 latency 4.8 s (threshold 1.5 s)",
    fired_at: "2025-06-03T14:22:00Z",
    cause: { service: "catalog-indexer", seq: 212 },
  },
  {
    alert_id: "A-1063",
    service: "mobile-bff",
    env: "prod",
    signal: "login error rate 31% (threshold 5%)",
    fired_at: "2025-06-04T07:55:00Z",
    cause: { service: "auth-service", seq: 905 },
  },
];

const SERVICES: Record<string, { team: string; upstreams: string[] }> = {
  "checkout-api": { team: "payments", upstreams: ["session-store", "payments-gateway", "fraud-score"] },
  "search-web": { team: "discovery", upstreams: ["session-store", "catalog-indexer", "ranking-model"] },
  "mobile-bff": { team: "mobile", upstreams: ["session-store", "auth-service", "feature-flags"] },
  "session-store": { team: "platform", upstreams: [] },
  "payments-gateway": { team: "payments", upstreams: ["fraud-score"] },
  "fraud-score": { team: "risk", upstreams: [] },
  "catalog-indexer": { team: "discovery", upstreams: [] },
  "ranking-model": { team: "discovery", upstreams: [] },
  "auth-service": { team: "identity", upstreams: ["session-store"] },
  "feature-flags": { team: "platform", upstreams: [] },
};

/** Production deploys, newest first: [seq, version, build, deployed_at, author]. */
const PROD: Record<string, [number, string, string, string, string][]> = {
  "session-store": [
    [77, "v3.8.1", "b-3107", "2025-05-29T08:30:00Z", "mkovacs"],
    [76, "v3.8.0", "b-3090", "2025-05-21T10:12:00Z", "mkovacs"],
  ],
  "payments-gateway": [
    [418, "v2.31.0", "b-7790", "2025-06-02T09:38:00Z", "jlee"],
    [417, "v2.30.2", "b-7731", "2025-06-01T16:05:00Z", "jlee"],
    [416, "v2.30.1", "b-7702", "2025-05-28T13:40:00Z", "abrown"],
  ],
  "fraud-score": [
    [133, "v1.12.0", "b-1288", "2025-05-26T13:00:00Z", "pnair"],
    [132, "v1.11.3", "b-1270", "2025-05-19T09:45:00Z", "pnair"],
  ],
  "catalog-indexer": [
    [212, "v5.4.0", "b-5561", "2025-06-03T14:09:00Z", "sgarcia"],
    [211, "v5.3.7", "b-5520", "2025-05-30T11:20:00Z", "sgarcia"],
  ],
  "ranking-model": [
    [58, "v0.9.3", "b-0581", "2025-05-31T09:00:00Z", "tokafor"],
    [57, "v0.9.2", "b-0574", "2025-05-24T15:30:00Z", "tokafor"],
  ],
  "auth-service": [
    [905, "v9.2.0", "b-9052", "2025-06-04T07:49:00Z", "rwong"],
    [904, "v9.1.4", "b-9017", "2025-06-03T10:00:00Z", "rwong"],
  ],
  "feature-flags": [
    [301, "v4.0.2", "b-4012", "2025-06-01T12:00:00Z", "mkovacs"],
    [300, "v4.0.1", "b-4004", "2025-05-27T08:10:00Z", "mkovacs"],
  ],
};

const PAGE_SIZE = 5;
const STAGING_DEPLOYS = 12;

interface Deploy {
  seq: number;
  service: string;
  version: string;
  env: string;
  status: string;
  deployed_at: string;
  author: string;
}

/** Every deploy of a service, newest first: staging ones (frequent, recent) on top of the prod ones. */
function history(service: string): (Deploy & { build: string })[] {
  const prod = (PROD[service] ?? []).map(([seq, version, build, deployed_at, author]) => ({
    seq,
    service,
    version,
    env: "prod",
    status: "succeeded",
    deployed_at,
    author,
    build,
  }));
  const newest = prod[0];
  if (!newest) return [];
  const base = Date.parse(newest.deployed_at);
  const staging = Array.from({ length: STAGING_DEPLOYS }, (_, i) => ({
    seq: newest.seq + STAGING_DEPLOYS - i + 1000,
    service,
    version: `${newest.version}-rc.${STAGING_DEPLOYS - i}`,
    env: "staging",
    status: "succeeded",
    deployed_at: new Date(base + (STAGING_DEPLOYS - i) * 25 * 60_000).toISOString().replace(".000Z", "Z"),
    author: "ci-bot",
    build: `b-s${newest.seq}${STAGING_DEPLOYS - i}`,
  }));
  return [...staging, ...prod];
}

const str = (description: string) => ({ type: "string", description });

/** The tool definitions as advertised now; `schema_reason` changes deploys_rollback's schema. */
export function incidentTools(s: IncidentSwitches = switches()): ToolDef[] {
  const rollbackProps: Record<string, unknown> = { deploy_id: str("The deploy to roll back.") };
  const rollbackRequired = ["deploy_id"];
  if (s.schema_reason) {
    rollbackProps["reason"] = str("Why the deploy is rolled back; recorded by change management.");
    rollbackRequired.push("reason");
  }
  return [
    {
      name: "alerts_get",
      description: "Get an alert: the service it fired on, the signal and when it fired.",
      input_schema: { type: "object", properties: { alert_id: str("e.g. A-1000") }, required: ["alert_id"] },
    },
    {
      name: "alerts_annotate",
      description: "Add a note to an alert's timeline (what was found, what was done).",
      input_schema: {
        type: "object",
        properties: { alert_id: str("The alert."), note: str("The note.") },
        required: ["alert_id", "note"],
      },
    },
    {
      name: "services_get",
      description: "Get a service from the service catalog: team and upstream dependencies (as service ids).",
      input_schema: {
        type: "object",
        properties: { service_id: str("The service id.") },
        required: ["service_id"],
      },
    },
    {
      name: "deploys_list",
      description: "List the deploys of a service, newest first, 5 per page. Returns { deploys, next_page }.",
      input_schema: {
        type: "object",
        properties: {
          service_id: str("The service id."),
          page: { type: "integer", minimum: 1, default: 1 },
        },
        required: ["service_id"],
        additionalProperties: true,
      },
    },
    {
      name: "deploys_get",
      description: "Get one deploy with its build id and change summary.",
      input_schema: {
        type: "object",
        properties: { deploy_id: str("The deploy id.") },
        required: ["deploy_id"],
      },
    },
    {
      name: "deploys_create",
      description: "Deploy a build of a service to its environment. Returns the new deploy.",
      input_schema: {
        type: "object",
        properties: { service_id: str("The service id."), build: str("The build id to deploy.") },
        required: ["service_id", "build"],
      },
    },
    {
      name: "deploys_rollback",
      description: "Roll a bad deploy back in one call: the service returns to its previous version.",
      input_schema: { type: "object", properties: rollbackProps, required: rollbackRequired },
    },
  ];
}

/** The base tools of `tooldistill.yaml` (`tools: ./tools.ts#TOOLS`), as advertised when this module loads. */
export const TOOLS: ToolDef[] = incidentTools();

/** What this process did: rollbacks, redeploys and notes, for the runner's success check. */
const done = {
  rollbacks: [] as string[],
  redeploys: [] as { service: string; build: string; deploy_id: string }[],
  notes: [] as { alert_id: string; note: string }[],
};

function parseServiceId(id: string): { env: string; name: string } {
  const m = /^svc-(prod|staging)-([a-z0-9-]+)$/.exec(id);
  if (!m || !SERVICES[m[2]!])
    throw new Error(`404 service '${id}' not found. Service ids look like 'svc-prod-ledger'.`);
  return { env: m[1]!, name: m[2]! };
}

function parseDeployId(id: string): { service: string; seq: number } {
  const m = /^([a-z0-9-]+)@(\d+)$/.exec(id);
  if (!m)
    throw new Error(
      `400 invalid deploy_id '${id}': deploy ids look like '<service>@<seq>', e.g. 'ledger@77'`,
    );
  return { service: m[1]!, seq: Number(m[2]) };
}

function findDeploy(id: string): Deploy & { build: string } {
  const { service, seq } = parseDeployId(id);
  const d = history(service).find((x) => x.seq === seq);
  if (d) return d;
  const redeploy = done.redeploys.find((r) => r.deploy_id === id);
  if (redeploy) {
    const from = history(service).find((x) => x.build === redeploy.build);
    return {
      seq,
      service,
      version: from?.version ?? "unknown",
      env: "prod",
      status: "succeeded",
      deployed_at: "just now",
      author: "tooldistill-agent",
      build: redeploy.build,
    };
  }
  throw new Error(`404 deploy '${id}' not found`);
}

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** Runs one base tool (`executor: ./tools.ts#executeTool`). Throws to signal failure, as a real API errors. */
export function executeTool(name: string, args: Record<string, unknown>): unknown {
  const s = switches();
  const a = (key: string) => text(args[key] ?? "");
  switch (name) {
    case "alerts_get": {
      const alert = ALERTS.find((x) => x.alert_id === a("alert_id"));
      if (!alert) throw new Error(`404 alert '${a("alert_id")}' not found`);
      const { cause: _cause, ...shown } = alert;
      return { ...shown, status: "firing" };
    }
    case "alerts_annotate": {
      if (!ALERTS.some((x) => x.alert_id === a("alert_id")))
        throw new Error(`404 alert '${a("alert_id")}' not found`);
      done.notes.push({ alert_id: a("alert_id"), note: a("note") });
      return {
        alert_id: a("alert_id"),
        notes: done.notes.filter((n) => n.alert_id === a("alert_id")).length,
      };
    }
    case "services_get": {
      const { env, name: svc } = parseServiceId(a("service_id"));
      const entry = SERVICES[svc]!;
      return {
        service_id: a("service_id"),
        name: svc,
        team: entry.team,
        upstreams: entry.upstreams.map((u) => `svc-${env}-${u}`),
      };
    }
    case "deploys_list": {
      const { name: svc } = parseServiceId(a("service_id"));
      const filters = Object.keys(args).filter((k) => k !== "service_id" && k !== "page");
      for (const f of filters) {
        if (f !== "env") throw new Error(`400 unknown filter '${f}'`);
      }
      const page = Number(args["page"] ?? 1);
      const all = history(svc)
        .filter((d) => args["env"] === undefined || d.env === args["env"])
        .map(({ build: _build, ...d }) => d);
      const slice = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      return { deploys: slice, next_page: page * PAGE_SIZE < all.length ? page + 1 : null };
    }
    case "deploys_get": {
      const d = findDeploy(a("deploy_id"));
      return { deploy_id: `${d.service}@${d.seq}`, ...d, change: `${d.version}: release of ${d.service}` };
    }
    case "deploys_create": {
      const { name: svc } = parseServiceId(a("service_id"));
      const prod = history(svc).filter((d) => d.env === "prod");
      const build = prod.find((d) => d.build === a("build"));
      if (!build) throw new Error(`404 build '${a("build")}' not found for ${svc}`);
      const deploy_id = `${svc}@${(prod[0]?.seq ?? 0) + 1}`;
      done.redeploys.push({ service: svc, build: a("build"), deploy_id });
      return { deploy_id, service: svc, version: build.version, status: "in_progress" };
    }
    case "deploys_rollback": {
      if (s.outage)
        throw new Error("503 Service Unavailable: the rollback service is down (INC-2211); try again later");
      if (s.schema_reason && !args["reason"]) throw new Error("400 missing required property 'reason'");
      const d = findDeploy(a("deploy_id"));
      const prod = history(d.service).filter((x) => x.env === "prod");
      if (prod[0]?.seq !== d.seq)
        throw new Error(`409 ${a("deploy_id")} is not the newest prod deploy of ${d.service}`);
      const previous = prod[1];
      done.rollbacks.push(a("deploy_id"));
      return {
        deploy_id: a("deploy_id"),
        status: "rolled_back",
        restored: previous ? `${d.service}@${previous.seq}` : null,
        version: previous?.version ?? null,
      };
    }
    default:
      throw new Error(`no such tool '${name}'`);
  }
}

/** `health_probe`: the rollback is reachable unless the outage switch is on. */
export function probe(name: string): boolean {
  return name === "deploys_rollback" ? !switches().outage : TOOLS.some((t) => t.name === name);
}

/** The runner's own success check: the deploy that caused the alert was reverted and the alert has a note. */
export function incidentMitigated(alertId: string): boolean {
  const alert = ALERTS.find((x) => x.alert_id === alertId);
  if (!alert) return false;
  const bad = `${alert.cause.service}@${alert.cause.seq}`;
  const previous = PROD[alert.cause.service]?.find(([seq]) => seq < alert.cause.seq);
  const reverted =
    done.rollbacks.includes(bad) ||
    done.redeploys.some((r) => r.service === alert.cause.service && r.build === previous?.[2]);
  return reverted && done.notes.some((n) => n.alert_id === alertId);
}

/** The alert ids the fake knows. */
export const ALERT_IDS = ALERTS.map((a) => a.alert_id);
