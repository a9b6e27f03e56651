import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateTableBody, ServiceRequest, TableRef, TablesPatterns, UpdateTableBody } from '@contracts';
import { TablesService } from './tables.service';

/** Request-reply handlers for tables and their fields (queue group `tables`). */
@Controller()
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @MessagePattern(TablesPatterns.list)
  list(@Payload() request: ServiceRequest<{ page: number; limit: number }>) {
    return this.tables.list(request.org.id, request.params.page, request.params.limit);
  }

  @MessagePattern(TablesPatterns.get)
  get(@Payload() request: ServiceRequest<TableRef>) {
    return this.tables.get(request.org.id, request.params.tableId);
  }

  @MessagePattern(TablesPatterns.create)
  create(@Payload() request: ServiceRequest<{ body: CreateTableBody }>) {
    return this.tables.create(request.org.id, request.params.body);
  }

  @MessagePattern(TablesPatterns.update)
  update(@Payload() request: ServiceRequest<TableRef & { body: UpdateTableBody }>) {
    return this.tables.update(request.org.id, request.params.tableId, request.params.body);
  }

  @MessagePattern(TablesPatterns.remove)
  remove(@Payload() request: ServiceRequest<TableRef>) {
    return this.tables.remove(request.org.id, request.params.tableId);
  }
}
