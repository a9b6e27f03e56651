import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RowRef, ServiceRequest, TableRef, TablesPatterns } from '@contracts';
import { RowListParams, RowsService } from './rows.service';

type RowData = { data: Record<string, unknown> };

/** Request-reply handlers for rows (queue group `tables`). */
@Controller()
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @MessagePattern(TablesPatterns.listRows)
  list(@Payload() request: ServiceRequest<TableRef & RowListParams>) {
    return this.rows.list(request.org.id, request.params.tableId, request.params);
  }

  @MessagePattern(TablesPatterns.getRow)
  get(@Payload() request: ServiceRequest<RowRef>) {
    return this.rows.get(request.org.id, request.params.tableId, request.params.rowId);
  }

  @MessagePattern(TablesPatterns.createRow)
  create(@Payload() request: ServiceRequest<TableRef & RowData>) {
    return this.rows.create(request.org.id, request.params.tableId, request.params.data);
  }

  @MessagePattern(TablesPatterns.updateRow)
  update(@Payload() request: ServiceRequest<RowRef & RowData>) {
    return this.rows.update(request.org.id, request.params.tableId, request.params.rowId, request.params.data);
  }

  @MessagePattern(TablesPatterns.removeRow)
  remove(@Payload() request: ServiceRequest<RowRef>) {
    return this.rows.remove(request.org.id, request.params.tableId, request.params.rowId);
  }
}
