-- The funnel report over whole months (docs/operations.md, "Scale"): one row per company and month with
-- the funnel's stages already counted (created, verified, pre-qualified, approved, funded), instead of a
-- row per company, month and status beside a row of outcomes. A year is then summed from twelve rows per
-- company, as many at a million leads as at ten thousand. The triggers of 026_funnel_months.sql on the
-- per-day counts write here now; the per-status months are dropped (only the funnel report read them:
-- an instance of an earlier version answers it with 500 until it is replaced, docs/operations.md).
-- squawk-ignore-file ban-drop-table

-- The day tables' writers wait for this transaction from here on: no change is counted in the old months
-- after they are read below, and none runs the old functions against a table dropped under it.
lock table funnel_lead_days, funnel_outcome_days in share row exclusive mode;

create table funnel_months (
  company_id uuid not null,
  month date not null,
  created integer not null,
  -- Of those leads: the ones whose status is verified or later (funnel_verified), and PREQUALIFIED.
  verified integer not null,
  prequalified integer not null,
  -- Of those leads: the ones whose current outcome is or was APPROVED, is FUNDED, and the funded amounts.
  approved integer not null,
  funded integer not null,
  funded_amount numeric not null,
  primary key (company_id, month)
);

-- The statuses the funnel counts as verified: the PIN was confirmed (src/lead-status, verifiedStatuses;
-- src/outcomes/funnel-stages.test.ts holds the two lists together).
create function funnel_verified(status text) returns boolean language sql immutable
  return status in ('VERIFIED', 'PREQUALIFIED', 'NOT_PREQUALIFIED');

-- `leads` leads of a status join (or, negative, leave) their company's month.
create function funnel_months_add_leads(company uuid, day date, status text, leads integer) returns void
language sql as $$
  insert into funnel_months as m (company_id, month, created, verified, prequalified, approved, funded, funded_amount)
    values (company, date_trunc('month', day)::date, leads, case when funnel_verified(status) then leads else 0 end,
      case when status = 'PREQUALIFIED' then leads else 0 end, 0, 0, 0)
    on conflict (company_id, month) do update set created = m.created + excluded.created,
      verified = m.verified + excluded.verified, prequalified = m.prequalified + excluded.prequalified;
$$;

create or replace function funnel_lead_months_count() returns trigger language plpgsql as $$
begin
  -- The usual change: a day's count of a status moves; its month moves by as much, in one write.
  if tg_op = 'UPDATE' and (old.company_id, old.day, old.status) = (new.company_id, new.day, new.status) then
    update funnel_months set created = created + new.leads - old.leads,
      verified = verified + case when funnel_verified(new.status) then new.leads - old.leads else 0 end,
      prequalified = prequalified + case when new.status = 'PREQUALIFIED' then new.leads - old.leads else 0 end
      where company_id = new.company_id and month = date_trunc('month', new.day)::date;
    return null;
  end if;
  if tg_op <> 'INSERT' then
    perform funnel_months_add_leads(old.company_id, old.day, old.status, -old.leads);
  end if;
  if tg_op <> 'DELETE' then
    perform funnel_months_add_leads(new.company_id, new.day, new.status, new.leads);
  end if;
  return null;
end
$$;

-- A day's outcomes join (sign 1) or leave (sign -1) their company's month.
create function funnel_months_add_outcomes(company uuid, day date, sign integer, approved integer, funded integer,
  funded_amount numeric) returns void
language sql as $$
  insert into funnel_months as m (company_id, month, created, verified, prequalified, approved, funded, funded_amount)
    values (company, date_trunc('month', day)::date, 0, 0, 0, sign * approved, sign * funded, sign * funded_amount)
    on conflict (company_id, month) do update set approved = m.approved + excluded.approved,
      funded = m.funded + excluded.funded, funded_amount = m.funded_amount + excluded.funded_amount;
$$;

create or replace function funnel_outcome_months_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (old.company_id, old.day) = (new.company_id, new.day) then
    update funnel_months set approved = approved + new.approved - old.approved,
      funded = funded + new.funded - old.funded, funded_amount = funded_amount + new.funded_amount - old.funded_amount
      where company_id = new.company_id and month = date_trunc('month', new.day)::date;
    return null;
  end if;
  if tg_op <> 'INSERT' then
    perform funnel_months_add_outcomes(old.company_id, old.day, -1, old.approved, old.funded, old.funded_amount);
  end if;
  if tg_op <> 'DELETE' then
    perform funnel_months_add_outcomes(new.company_id, new.day, 1, new.approved, new.funded, new.funded_amount);
  end if;
  return null;
end
$$;

-- The months counted so far, from the per-status months they replace.
insert into funnel_months (company_id, month, created, verified, prequalified, approved, funded, funded_amount)
  select company_id, month, sum(created), sum(verified), sum(prequalified), sum(approved), sum(funded),
    sum(funded_amount)
  from (
    select company_id, month, leads as created, case when funnel_verified(status) then leads else 0 end as verified,
      case when status = 'PREQUALIFIED' then leads else 0 end as prequalified, 0 as approved, 0 as funded,
      0 as funded_amount
    from funnel_lead_months
    union all
    select company_id, month, 0, 0, 0, approved, funded, funded_amount from funnel_outcome_months
  ) counts
  group by company_id, month;

drop table funnel_lead_months, funnel_outcome_months;
