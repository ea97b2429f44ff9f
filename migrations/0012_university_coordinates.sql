-- Filled in by the IPEDS data (in progress).
SELECT 1;
