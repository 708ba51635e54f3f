// Where the suites point and with which credentials; every value can be overridden with -e NAME=value.
export const INGEST_URL = __ENV.INGEST_URL || __ENV.BASE_URL || 'http://127.0.0.1:8080';
// Several ingest instances (comma-separated): the closed-loop suite spreads its devices over them and fails over as
// a load balancer would (k6/lib/instances.js); unset, every POST goes to INGEST_URL.
export const INGEST_URLS = (__ENV.INGEST_URLS || INGEST_URL).split(',').map((u) => u.trim()).filter((u) => u);
export const RULES_URL = __ENV.RULES_URL || 'http://127.0.0.1:8082';
export const NOTIFY_URL = __ENV.NOTIFY_URL || 'http://127.0.0.1:8083';
export const WS_URL = __ENV.WS_URL || NOTIFY_URL.replace(/^http/, 'ws') + '/ws';
export const DEVICE_KEY = __ENV.DEVICE_KEY || 'demo-device-key';
export const DASHBOARD_TOKEN = __ENV.DASHBOARD_TOKEN || 'demo-dashboard-token';
export const ADMIN_TOKEN = __ENV.ADMIN_TOKEN || 'demo-admin-token';
export const REPORT_DIR = __ENV.REPORT_DIR || 'k6/reports';

export const deviceHeaders = {
  'Content-Type': 'application/json',
  Authorization: `Bearer ${DEVICE_KEY}`,
};

export const dashboardHeaders = { Authorization: `Bearer ${DASHBOARD_TOKEN}` };

// Changing rules and device types needs the admin token.
export const adminHeaders = { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_TOKEN}` };
