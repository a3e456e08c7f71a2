-- Sliding-window rate-limit log used by platform/ratelimit: one row per
-- counted event, so every instance behind a load balancer sees the same
-- counts. Rows older than a day are pruned as new ones arrive.
CREATE TABLE rate_hits (
    id {{.ID}},
    bucket VARCHAR(300) NOT NULL,
    at_ms BIGINT NOT NULL
);
--bun:split
CREATE INDEX rate_hits_bucket_at ON rate_hits (bucket, at_ms);
--bun:split
CREATE INDEX rate_hits_at ON rate_hits (at_ms);
