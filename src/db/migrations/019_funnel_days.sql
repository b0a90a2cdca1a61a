-- The funnel report's counts per company and creation day (UTC), so that a window of whole days is
-- summed from a few rows per day instead of read lead by lead (docs/lender-api.md, "The funnel").
-- Only the triggers below write these tables, each its own: the leads' trigger the leads per status,
-- the outcomes' trigger the current outcomes; no module writes them, the funnel reads them.
create table funnel_lead_days (
  company_id uuid not null,
  day date not null,
  status text not null,
  leads integer not null,
  primary key (company_id, day, status)
);
create table funnel_outcome_days (
  company_id uuid not null,
  day date not null,
  -- Of the leads created that day: those whose current outcome is or was APPROVED, is FUNDED, and
  -- the sum of the funded amounts.
  approved integer not null,
  funded integer not null,
  funded_amount numeric not null,
  primary key (company_id, day)
);

-- A lead created, moved to another status or deleted: one less of its old status, one more of its
-- new, in key order (two writers never wait for each other's rows crosswise). The triggers run when
-- the writing transaction commits (deferred), so a day's row is locked only for the commit itself.
create function funnel_lead_days_count() returns trigger language plpgsql as $$
declare
  old_day date;
  new_day date;
begin
  if tg_op = 'INSERT' then
    insert into funnel_lead_days as d (company_id, day, status, leads)
      values (new.company_id, (new.created_at at time zone 'UTC')::date, new.status, 1)
      on conflict (company_id, day, status) do update set leads = d.leads + 1;
    return null;
  end if;
  old_day := (old.created_at at time zone 'UTC')::date;
  if tg_op = 'DELETE' then
    update funnel_lead_days set leads = leads - 1
      where company_id = old.company_id and day = old_day and status = old.status;
    return null;
  end if;
  new_day := (new.created_at at time zone 'UTC')::date;
  if (old.company_id, old_day, old.status) = (new.company_id, new_day, new.status) then
    return null;
  end if;
  insert into funnel_lead_days as d (company_id, day, status, leads)
    select * from (values (old.company_id, old_day, old.status, -1), (new.company_id, new_day, new.status, 1))
      as c (company_id, day, status, leads)
    order by company_id, day, status
    on conflict (company_id, day, status) do update set leads = d.leads + excluded.leads;
  return null;
end
$$;
create constraint trigger funnel_lead_days_insert after insert on leads
  deferrable initially deferred for each row execute function funnel_lead_days_count();
create constraint trigger funnel_lead_days_update after update of status, company_id, created_at on leads
  deferrable initially deferred for each row
  when (old.status is distinct from new.status or old.company_id is distinct from new.company_id
    or old.created_at is distinct from new.created_at)
  execute function funnel_lead_days_count();
create constraint trigger funnel_lead_days_delete after delete on leads
  deferrable initially deferred for each row execute function funnel_lead_days_count();

-- An outcome row that is or stops being its lead's current one: its lead's day gains or loses it,
-- at once (an outcome's writer holds its lead's lock, and the lead is still there to be read).
create function funnel_outcome_days_count() returns trigger language plpgsql as $$
declare
  changed lead_outcomes;
  sign integer;
  lead_company uuid;
  lead_day date;
begin
  foreach sign in array array[-1, 1] loop
    if sign = -1 then
      continue when tg_op = 'INSERT' or not old.current;
      changed := old;
    else
      continue when tg_op = 'DELETE' or not new.current;
      changed := new;
    end if;
    select l.company_id, (l.created_at at time zone 'UTC')::date into lead_company, lead_day
      from leads l where l.id = changed.lead_id;
    insert into funnel_outcome_days as d (company_id, day, approved, funded, funded_amount)
      values (lead_company, lead_day, sign * changed.was_approved::int, sign * (changed.status = 'FUNDED')::int,
        sign * case when changed.status = 'FUNDED' then coalesce(changed.amount_funded, 0) else 0 end)
      on conflict (company_id, day) do update set approved = d.approved + excluded.approved,
        funded = d.funded + excluded.funded, funded_amount = d.funded_amount + excluded.funded_amount;
  end loop;
  return null;
end
$$;
create trigger funnel_outcome_days_insert after insert on lead_outcomes
  for each row when (new.current) execute function funnel_outcome_days_count();
create trigger funnel_outcome_days_update after update on lead_outcomes
  for each row when (old.current or new.current) execute function funnel_outcome_days_count();
create trigger funnel_outcome_days_delete after delete on lead_outcomes
  for each row when (old.current) execute function funnel_outcome_days_count();

-- The counts of the leads and outcomes already written (creating the triggers made their writers wait
-- for this transaction, so none is counted twice or missed).
insert into funnel_lead_days (company_id, day, status, leads)
  select company_id, (created_at at time zone 'UTC')::date, status, count(*) from leads group by 1, 2, 3;
insert into funnel_outcome_days (company_id, day, approved, funded, funded_amount)
  select l.company_id, (l.created_at at time zone 'UTC')::date, count(*) filter (where o.was_approved),
    count(*) filter (where o.status = 'FUNDED'),
    coalesce(sum(o.amount_funded) filter (where o.status = 'FUNDED'), 0)
  from lead_outcomes o join leads l on l.id = o.lead_id where o.current group by 1, 2;
