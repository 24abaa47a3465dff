Feature: What a level includes
  Under each level card a list of service items shows a tick where the level includes the item.
  For the four named items (data query and export, SMS alarms, voice alarms and AI questions) the
  part of the item's name in brackets, half-width () or full-width （）, is shown as the item's
  detail and the rest as its title. Other items show their whole name and no detail.

  Scenario Outline: The detail of a named item comes from the brackets of its name
    When the item <code> named "<name>" is listed
    Then the item's title reads "<title>"
    And the item's detail reads "<detail>"

    Examples: Domestic names with full-width brackets
      | code              | name                         | title        | detail             |
      | DATA_QUERY_EXPORT | 数据查询导出（最长3年历史）  | 数据查询导出 | 最长3年历史        |
      | ALARM_SMS         | 短信告警（超限短信通知）     | 短信告警     | 超限短信通知       |
      | ALARM_VOICE       | 语音告警（超限电话通知）     | 语音告警     | 超限电话通知       |
      | AI_QA             | AI问答（用自然语言查询数据） | AI问答       | 用自然语言查询数据 |

    Examples: International names with half-width brackets
      | code              | name                                             | title                 | detail                             |
      | DATA_QUERY_EXPORT | Data query and export (up to 3 years of history) | Data query and export | up to 3 years of history           |
      | ALARM_SMS         | SMS alarms (text message on every limit breach)  | SMS alarms            | text message on every limit breach |
      | ALARM_VOICE       | Voice alarms (phone call on every limit breach)  | Voice alarms          | phone call on every limit breach   |
      | AI_QA             | AI Q&A (ask questions about your data)           | AI Q&A                | ask questions about your data      |

    Examples: Mixed brackets and spaces
      | code      | name                      | title      | detail       |
      | ALARM_SMS | SMS alarms（every breach) | SMS alarms | every breach |
      | AI_QA     | AI Q&A ( ask anything )   | AI Q&A     | ask anything |

  Scenario Outline: An item shows no detail
    When the item <code> named "<name>" is listed
    Then the item's title reads "<title>"
    And the item has no detail

    Examples:
      | code              | name                           | title                          |
      | REMOTE_SETTINGS   | Remote settings (over the air) | Remote settings (over the air) |
      | ALARM_SMS         | SMS alarms                     | SMS alarms                     |
      | AI_QA             | AI Q&A ()                      | AI Q&A                         |
      | DATA_QUERY_EXPORT | Data (export) for 3 years      | Data (export) for 3 years      |
