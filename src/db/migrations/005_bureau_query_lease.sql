-- While one confirmation queries the bureau, a concurrent one with the same PIN must not query it
-- again: the first takes a lease until this time (cleared when the query fails).
alter table lead_pins add column bureau_lease_until timestamptz
