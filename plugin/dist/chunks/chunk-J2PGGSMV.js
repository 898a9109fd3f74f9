import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/types.ts
var silentLogger = { info() {
}, warn() {
}, error() {
} };
var Statuses = [
  "draft",
  "verified",
  "active",
  "suspect",
  "deprecated",
  "rejected",
  "superseded"
];
var NO_EVIDENCE = Object.freeze({
  callSites: null,
  literals: null,
  runs: null,
  writes: [],
  promotion: null
});

export {
  silentLogger,
  Statuses,
  NO_EVIDENCE
};
