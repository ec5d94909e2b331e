/** The shapes of the UI read API (tuner-service, /api/v1/ui/**) and the existing endpoints the UI uses. */

export type Role = 'VIEWER' | 'OPERATOR' | 'ADMIN' | 'REPORTER';

export interface Me {
  user: string;
  roles: Role[];
  queues?: string[];
}

export interface Paged<T> {
  total: number;
  page: number;
  size: number;
  items: T[];
}

export interface TopSaving {
  jobKey: string;
  blockedMsSaved: number;
  wallMsSaved: number;
  baselineWallMs: number;
  currentWallMs: number;
}

export interface Overview {
  from: number;
  to: number;
  jobs: { total: number; tuned: number; converged: number; frozen: number };
  rollbacks: number;
  saved: { blockedMs: number; wallMs: number; top: TopSaving[] };
  /** Absent while the service does not collect gate events. */
  ess?: { nodes: number; nodesAbnormal: number; appsHeld: number };
  tier: { admissions: number; fallbacks: number; failures: number };
}

export interface JobRow {
  jobKey: string;
  cluster: string;
  queue: string;
  user: string;
  state: string;
  worstSeverity: string | null;
  lastRunAt: number | null;
  runs: number;
  lastWallMs: number | null;
  frozen: boolean;
}

export interface Facets {
  clusters: string[];
  queues: string[];
  users: string[];
  states: string[];
  severities: string[];
}

export interface RunSummary {
  cluster: string;
  appId: string;
  attemptId: string;
  startTime: number;
  endTime: number;
  wallMs: number;
  blockedMs: number;
  shuffleReadBytes: number;
  shuffleWriteBytes: number;
  spillBytes: number;
  failedTasks: number;
  status: string;
  tier: string | null;
  changed: string[];
  submissionId: string | null;
  /** The policy's verdict on the change this run carried (e.g. KEPT, ROLLED_BACK), when it carried one. */
  decision?: string | null;
  evaluation?: string | null;
}

export type Fate = 'KEPT' | 'ROLLED_BACK' | 'SUPERSEDED' | 'PENDING';

export interface RecommendationView {
  at: number;
  runAppId: string | null;
  key: string;
  value: string;
  previous: string | null;
  reason: string;
  evidence: Record<string, number>;
  fate: Fate;
  fateReason: string | null;
}

export interface StateChange {
  at: number;
  state: string;
  reason: string;
}

export interface JobDetail {
  jobKey: string;
  cluster: string;
  queue: string;
  user: string;
  state: string;
  frozen: boolean;
  stateHistory: StateChange[];
  runs: RunSummary[];
  recommendations: RecommendationView[];
  pendingTrial: Record<string, string> | null;
}

export interface StageProfile {
  appId: string;
  stageId: number;
  stageAttemptId: number;
  name: string;
  numTasks: number;
  failedTasks: number;
  fetchFailedTasks: number;
  shuffleWriteBytes: number;
  shuffleRemoteBytesRead: number;
  shuffleLocalBytesRead: number;
  shuffleRemoteBlocksFetched: number;
  shuffleLocalBlocksFetched: number;
  shuffleFetchWaitMs: number;
  memoryBytesSpilled: number;
  diskBytesSpilled: number;
  executorRunTimeMs: number;
  avgRemoteBlockBytes: number;
  fetchWaitShare: number;
  readSkew: number;
  mapPartitions: number;
  reducePartitions: number;
  submissionTime: number;
  completionTime: number;
}

export interface Diagnosis {
  ruleId: string;
  severity: string;
  stageIds: number[];
  summary: string;
  evidence: Record<string, number>;
  recommendations: { key: string; value: string; reason: string }[];
}

export interface RunDetail {
  run: {
    cluster: string;
    appId: string;
    attemptId: string;
    jobKey: string;
    name: string;
    user: string;
    queue: string;
    priority: number | null;
    startTime: number;
    endTime: number;
    status: string;
    sparkVersion: string;
    wallMs: number;
    blockedMs: number;
    tier: string | null;
    submissionId: string | null;
  };
  stages: StageProfile[];
  diagnoses: Diagnosis[];
  conf: Record<string, string>;
  injected: Record<string, string>;
}

/** One side of a diff. */
export interface RunRef {
  cluster: string;
  appId: string;
  attemptId: string;
  jobKey: string;
  startTime: number;
}

export interface ConfDiff {
  a: RunRef;
  b: RunRef;
  changed: { key: string; a: string; b: string }[];
  onlyA: { key: string; value: string }[];
  onlyB: { key: string; value: string }[];
}

export interface Episode {
  start: number;
  end: number | null;
  durationMs: number;
  held: number;
}

export interface ThrottleNode {
  cluster: string;
  node: string;
  state: string;
  since: number | null;
  lastEventAt: number;
  heldNow: number;
  held?: number;
  released?: number;
  episodes: Episode[];
}

export interface TimelineBucket {
  at: number;
  held: number;
  released: number;
  directives: number;
  abnormalNodes: number;
}

/** An application the gates held or slept in the period, with its priority. */
export interface ThrottleApp {
  cluster: string;
  appId: string;
  priority: number | null;
  held: number;
  released: number;
  directives: number;
  heldMs: number;
  sleepMs: number;
  nodes: number;
  firstAt: number;
  lastAt: number;
}

/** A gate event as the gate published it (unknown types keep their own fields). */
export interface GateEvent {
  type: string;
  cluster: string;
  node: string;
  at: number;
  [k: string]: unknown;
}

/** A stored gate event and where it came from on the topic. */
export interface StoredGateEvent {
  partition: number;
  offset: number;
  event: GateEvent;
}

export interface TierSummaryRow {
  tier: string;
  queue: string;
  admissions: number;
  refusals: number;
  fallbacks: number;
  failures: number;
  successes: number;
}

export interface Scope {
  cluster: string | null;
  queue: string | null;
  jobKey: string | null;
}

export interface RolloutRule {
  id: string;
  scope: Scope;
  tier: string;
  percent: number;
  note: string;
}

export interface DenyEntry {
  id: string;
  scope: Scope;
  reason: string;
}

export interface RuleBook {
  version: number;
  loaded: boolean;
  rules: RolloutRule[];
  denies: DenyEntry[];
}

export interface AuditEntry {
  seq: number;
  at: number;
  actor: string;
  action: string;
  itemId: string;
  before: string | null;
  after: string | null;
  version: number;
}

export interface TierAlert {
  seq: number;
  raisedAt: number;
  tier: string;
  queue: string;
  kind: string;
  count: number;
  routed: number;
  rate: number;
  threshold: number;
  appId: string | null;
  reason: string | null;
  summary: string;
  delivery: string;
}

export interface TierOutcomeRun {
  [k: string]: unknown;
}

export interface TierOutcomes {
  since: number;
  until: number;
  groups: {
    tier: string;
    queue: string;
    routed: number;
    ran: number;
    fellBack: number;
    failed: number;
    succeeded: number;
    fallbackRate: number | null;
    failureRate: number | null;
    fallbackReasons: Record<string, number>;
  }[];
  runs: TierOutcomeRun[];
}
