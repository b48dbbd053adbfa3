// The Pulse kit's SQLite store and outbox were StateStore's (issue 46 moved them to
// PulseKitSQLite, shared with the service): whoever imports StateStore still sees them.
@_exported import PulseKitSQLite
