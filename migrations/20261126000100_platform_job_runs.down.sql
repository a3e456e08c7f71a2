DROP TABLE job_runs;
