/**
 * The rules of the contract as plain classes that take and return values, for any front end (the
 * Flink stages, a batch backfill, a table function): per entity, {@link
 * org.quadfence.rules.EntityRules} (which fences an entity is in after each position, EXIT before
 * ENTER, hysteresis, DWELL and expiry, the order of events at one time) with {@link
 * org.quadfence.rules.DueTimes} (when DWELLs and expiries fall due); per tile, {@link
 * org.quadfence.rules.TileIndex} and {@link org.quadfence.rules.TileQuery} (the fences that contain
 * a position, and those within the exit margin). No Flink, Kafka or JSON in here: state, timers and
 * output are the caller's.
 */
package org.quadfence.rules;
