import { ValidateUuid } from '../common/validation/validation';
import { AssistantVersionQueryDto } from '../assistant/dto/assistant-version.dto';
import { RenderAssistantDto } from '../assistant/dto/render-assistant.dto';
import { TestStrategyDto } from '../lookup/dto/test-strategy.dto';

/*
 * The inputs of the MCP tools whose route takes an id in its path: the route's body or query DTO
 * with the id beside it, so a tool is checked by the same rules as its route.
 */

export class AssistantIdInput extends AssistantVersionQueryDto {
  /** The assistant (one of yours). */
  @ValidateUuid()
  assistant_id: string;
}

export class RenderAssistantInput extends RenderAssistantDto {
  /** The assistant (one of yours). */
  @ValidateUuid()
  assistant_id: string;
}

export class TestStrategyInput extends TestStrategyDto {
  /** The strategy (one of yours). */
  @ValidateUuid()
  strategy_id: string;
}
