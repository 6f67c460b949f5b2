#!/usr/bin/env bash
# An assistant, a tool attached to it, an inbound context strategy and an inbound mapping, each
# request using the ids the previous ones returned (docs/api.md "Example requests"). Needs curl and jq.
#
#   KEY=vac_… [BASE=http://localhost:3000] [NUMBER="+91 80 1234 5678"] bash examples/first-requests.sh
#
# Stops at the first request that fails, printing its route, status, message and the fields named,
# so no later request is sent with an id that was never created.
set -euo pipefail

: "${KEY:?set KEY to an API key (vac_…, from POST /auth/create-key)}"
BASE="${BASE:-http://localhost:3000}"
NUMBER="${NUMBER:-+91 80 1234 5678}"

# call METHOD PATH [BODY]: prints the answer's data, or stops with what the service said.
call() {
  local answer status
  answer=$(curl -sS -w '\n%{http_code}' -X "$1" "$BASE$2" -H "Authorization: Bearer $KEY" \
    -H 'Content-Type: application/json' ${3:+--data "$3"}) || { echo "$1 $2: cannot reach $BASE" >&2; exit 1; }
  status=${answer##*$'\n'}
  answer=${answer%$'\n'*}
  if [[ $status != 2* ]]; then
    echo "$1 $2: $status $(jq -r '.message // empty' <<<"$answer" 2>/dev/null) $(jq -c '.data.errors // empty' <<<"$answer" 2>/dev/null)" >&2
    exit 1
  fi
  jq -c '.data' <<<"$answer"
}

# an assistant
ASSISTANT_ID=$(call POST /assistant/create '{
  "assistant_name": "Front desk",
  "assistant_description": "Answers inbound calls",
  "assistant_prompt": "You are a friendly receptionist. The caller is {{context.customer_name | default: \"a guest\"}}.",
  "assistant_tts_model": "cartesia",
  "assistant_tts_config": {"voice_id": "voice-1"}
}' | jq -r .assistant_id)
echo "assistant $ASSISTANT_ID"

# a tool the language model may call (webhook), then attach it to the assistant
TOOL_ID=$(call POST /tool/create '{
  "tool_name": "lookup_order",
  "tool_description": "Looks up an order by its number",
  "tool_execution_type": "webhook",
  "tool_execution_config": {"url": "https://example.com/orders/lookup", "timeout": 5}
}' | jq -r .tool_id)
echo "tool $TOOL_ID"
call POST "/tool/attach/$ASSISTANT_ID" "{\"tool_ids\": [\"$TOOL_ID\"]}" >/dev/null
echo "tool attached"

# an inbound context strategy: your endpoint answers {"context": {...}} for each inbound call
STRATEGY_ID=$(call POST /inbound_context_strategy/create '{
  "strategy_name": "CRM lookup",
  "strategy_type": "webhook",
  "strategy_config": {
    "url": "https://example.com/voice/context",
    "timeout_seconds": 3,
    "fallback_context": {"customer_name": "there"}
  }
}' | jq -r .strategy_id)
echo "strategy $STRATEGY_ID"

# an inbound mapping: calls to this number get the assistant, personalised by the strategy
INBOUND_ID=$(call POST /inbound/assign "{
  \"assistant_id\": \"$ASSISTANT_ID\",
  \"inbound_context_strategy_id\": \"$STRATEGY_ID\",
  \"service\": \"exotel\",
  \"inbound_config\": {\"phone_number\": \"$NUMBER\"}
}" | jq -r .inbound_id)
echo "inbound mapping $INBOUND_ID: $NUMBER"
