-- Net x FX consistency: every governed line's rate is the governed rate of its posting date and rate type (or
-- exactly 1 in its own currency), so net x rate computed from the line equals net x rate computed from fx_rates.
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

fx_rates as (
    select * from {{ ref('fx_rates') }}
),

checked as (
    select
        lines.tenant_id,
        lines.line_id,
        lines.currency,
        lines.reporting_currency,
        lines.fx_rate_to_reporting_currency,
        fx_rates.rate as governed_rate,
        lines.line_net_amount * lines.fx_rate_to_reporting_currency as net_reporting_from_line,
        lines.line_net_amount
            * case when lines.currency = lines.reporting_currency then 1 else fx_rates.rate end
            as net_reporting_from_fx_rates
    from lines
    left join fx_rates
        on fx_rates.tenant_id = lines.tenant_id
       and fx_rates.rate_date = lines.fx_rate_date
       and fx_rates.from_currency = lines.currency
       and fx_rates.to_currency = lines.reporting_currency
       and fx_rates.rate_type = lines.fx_rate_type
)

select *
from checked
where net_reporting_from_line is distinct from net_reporting_from_fx_rates
