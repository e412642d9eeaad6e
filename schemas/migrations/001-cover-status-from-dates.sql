-- Statuses follow the calendar (docs/cover-status.md): the status of an insured person and of an
-- insurance record is no longer stored but derived from the cover dates and the business's today at
-- read time. What dates cannot tell stays stored, as an event (cover_event): cover waiting for the
-- payment of a pay-later batch ('pending') and a cancelled record ('cancelled').
--
-- A stored 待生效 was such an event only when the batch's order is still unpaid; otherwise it was a
-- start date in the future, which the dates now say themselves. A database created after this file
-- has neither table yet when it runs: the entity schemas create them with cover_event.
DO $$
BEGIN
  IF to_regclass('insure_records') IS NOT NULL
     AND EXISTS (SELECT 1 FROM information_schema.columns
                  WHERE table_schema = current_schema() AND table_name = 'insure_records' AND column_name = 'status') THEN
    ALTER TABLE insure_records ADD COLUMN IF NOT EXISTS cover_event TEXT CHECK (cover_event IN ('pending', 'cancelled'));
    UPDATE insure_records SET cover_event = 'cancelled' WHERE status = 'cancelled';
    IF EXISTS (SELECT 1 FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'orders' AND column_name = 'batch_id') THEN
      UPDATE insure_records r SET cover_event = 'pending'
       WHERE r.status = 'pending' AND r.batch_id IS NOT NULL
         AND EXISTS (SELECT 1 FROM orders o WHERE o.batch_id = r.batch_id AND o.pay_status = 'unpaid');
    END IF;
    ALTER TABLE insure_records DROP COLUMN status;
  END IF;
  IF to_regclass('insured_persons') IS NOT NULL
     AND EXISTS (SELECT 1 FROM information_schema.columns
                  WHERE table_schema = current_schema() AND table_name = 'insured_persons' AND column_name = 'status') THEN
    ALTER TABLE insured_persons ADD COLUMN IF NOT EXISTS cover_event TEXT CHECK (cover_event IN ('pending'));
    IF to_regclass('insure_records') IS NOT NULL THEN
      UPDATE insured_persons p SET cover_event = 'pending'
       WHERE p.status = 'pending'
         AND EXISTS (SELECT 1 FROM insure_records r
                      WHERE r.business_id = p.business_id AND r.id_card = p.id_card
                        AND r.effective_date = p.start_date AND r.cover_event = 'pending');
    END IF;
    -- Every person has a cover period (the entity now says so: start and end dates are required).
    UPDATE insured_persons SET start_date = coalesce(start_date, end_date, created_at::date), end_date = coalesce(end_date, start_date, created_at::date)
     WHERE start_date IS NULL OR end_date IS NULL;
    ALTER TABLE insured_persons ALTER COLUMN start_date SET NOT NULL, ALTER COLUMN end_date SET NOT NULL;
    ALTER TABLE insured_persons DROP COLUMN status;
  END IF;
END $$;
