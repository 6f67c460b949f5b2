import { getMetadataStorage } from 'class-validator';
import { AssistantDetailsDto } from '../assistant/dto/assistant-response.dto';
import { CreateAssistantDto } from '../assistant/dto/create-assistant.dto';
import { AssignInboundDto } from '../inbound-context/dto/assign-inbound.dto';
import { CreateStrategyDto } from '../inbound-context/dto/create-strategy.dto';
import {
  PolicyClosedActionDto,
  PolicyOverflowActionDto,
} from '../inbound-context/dto/inbound-policy.dto';
import { InboundResponseDto } from '../inbound-context/dto/inbound-response.dto';
import { StrategyResponseDto } from '../inbound-context/dto/strategy-response.dto';
import { CreateToolDto } from '../tool/dto/create-tool.dto';
import { ToolDetailsDto } from '../tool/dto/tool-response.dto';
import { BUNDLE_FIELDS, POLICY_ACTION_FIELDS } from './bundle-fields';
import { BUNDLE_TYPES } from './config-bundle.types';

type Dto = new () => object;

/** Where Swagger keeps a class's decorated properties, and its plugin's generated ones (not exported). */
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';
const PLUGIN_FACTORY = '_OPENAPI_METADATA_FACTORY';

/** The fields a response DTO documents (through `@ApiProperty` or the Swagger plugin), inherited ones too. */
function responseFields(dto: Dto): string[] {
  const fields = new Set<string>();
  for (
    let proto = dto.prototype;
    proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const factory = (proto.constructor as unknown as Record<string, unknown>)[PLUGIN_FACTORY];
    if (typeof factory === 'function')
      for (const field of Object.keys(factory())) fields.add(field);
    const decorated = (Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, proto) ?? []) as string[];
    for (const key of decorated) fields.add(key.replace(/^:/, ''));
  }
  return [...fields].sort();
}

/** The fields a request DTO has a rule for. */
const requestFields = (dto: Dto): string[] =>
  [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((rule) => rule.propertyName),
    ),
  ].sort();

const DTOS = {
  tools: { view: ToolDetailsDto, create: CreateToolDto },
  strategies: { view: StrategyResponseDto, create: CreateStrategyDto },
  assistants: { view: AssistantDetailsDto, create: CreateAssistantDto },
  inbound: { view: InboundResponseDto, create: AssignInboundDto },
};

/*
 * A field added to a resource's view or body fails here until BUNDLE_FIELDS says where it goes: a
 * field left out there is silently missing from every export and never applied.
 */
describe('BUNDLE_FIELDS', () => {
  it.each(BUNDLE_TYPES)('places every field of the %s view, each once', (type) => {
    const { key, server, copied, byName } = BUNDLE_FIELDS[type];
    const placed = [key, ...server, ...copied, ...Object.keys(byName)];
    expect(placed.sort()).toEqual(responseFields(DTOS[type].view));
  });

  it.each(BUNDLE_TYPES)('exports every field the %s create body takes', (type) => {
    const { key, copied, byName } = BUNDLE_FIELDS[type];
    // An assistant's tools are attached by their own route, not sent in its body.
    const taken = [key, ...copied, ...Object.keys(byName)].filter((field) => field !== 'tool_ids');
    expect(requestFields(DTOS[type].create)).toEqual(taken.sort());
  });

  it('places every field of a policy action', () => {
    const placed = [...POLICY_ACTION_FIELDS.copied, ...Object.keys(POLICY_ACTION_FIELDS.byName)];
    expect(requestFields(PolicyClosedActionDto)).toEqual(placed.sort());
    expect(requestFields(PolicyOverflowActionDto)).toEqual(
      placed.filter((field) => field !== 'assistant_version').sort(),
    );
  });
});
